/**
 * `read()` again every 20 ms until `done` says its answer is the one awaited, for at most 3 s; the
 * last answer. A change made behind an instance's back (in SQL, on another instance) reaches it
 * through a database notice, which on PostgreSQL comes a moment after the commit (decisions 038, 074).
 */
export async function settles<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

/** The status of `request` once it is `want` (or the last one after 3 s). */
export const settlesTo = async (request: () => Promise<{ statusCode: number }>, want: number) =>
  (await settles(request, (res) => res.statusCode === want)).statusCode;
