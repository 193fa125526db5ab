/**
 * The rows of a `db.execute` answer, whichever driver gave it: node-postgres and PGlite wrap them
 * in `{ rows }`, drizzle may hand the array itself.
 */
export const rowsOf = <T = Record<string, unknown>>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
