import { sql, type SQL } from 'drizzle-orm';

/**
 * A text array as one parameter (an array literal), read the same by node-postgres and PGlite;
 * `type` casts it (text[], uuid[]). Each element is quoted, so commas and quotes in a value are safe.
 */
export const pgArray = (values: readonly string[], type: 'text[]' | 'uuid[]' = 'text[]'): SQL =>
  sql`${`{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`}::${sql.raw(type)}`;
