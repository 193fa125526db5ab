/** Bind parameters stay well under PostgreSQL's 65,535 however many ids a statement names. */
const bindLimit = 1000;

/** `items` in runs of at most `size`, in order. */
export function chunksOf<T>(items: readonly T[], size = bindLimit): T[][] {
  const runs: T[][] = [];
  for (let i = 0; i < items.length; i += size) runs.push(items.slice(i, i + size));
  return runs;
}
