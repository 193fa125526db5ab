/** Runs `work` over `items` with at most `limit` at once; resolves when all are done (first error rethrown after). */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
) {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
