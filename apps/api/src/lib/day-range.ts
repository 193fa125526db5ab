import { gte, lt, type AnyColumn, type SQL } from 'drizzle-orm';

const dayMs = 24 * 3600_000;

/**
 * A list's `from` and `to` (UTC days as YYYY-MM-DD, both included) as conditions on a time column:
 * from the start of `from` to the start of the day after `to`, so an index on the column is a range.
 */
export function dayRange(column: AnyColumn, from: string | undefined, to: string | undefined): SQL[] {
  const conditions: SQL[] = [];
  if (from) conditions.push(gte(column, new Date(`${from}T00:00:00Z`)));
  if (to) conditions.push(lt(column, new Date(Date.parse(`${to}T00:00:00Z`) + dayMs)));
  return conditions;
}
