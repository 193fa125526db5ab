/** The middle value; for an even count, the mean of the two middle ones. NaN for none. */
export const median = (values: number[]) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Each figure's median over the rounds (every round has the same keys). */
export const mediansOf = (rounds: Record<string, number>[]): Record<string, number> =>
  Object.fromEntries(Object.keys(rounds[0] ?? {}).map((k) => [k, median(rounds.map((r) => r[k]!))]));
