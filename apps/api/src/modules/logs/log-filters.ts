import { eq, sql, type SQL } from 'drizzle-orm';
import { accessLogs, type errorLogs } from '#api/db/schema/logs.ts';
import { dayRange } from '#api/lib/day-range.ts';

type LogFilters = { userId?: string; machineNumber?: string; recordId?: string; from?: string; to?: string };

/**
 * The conditions a log list's filters set besides its search, shared by the lists and their
 * exports. Error rows name no record: a recordId filter matches none of them. A day range narrows
 * every index the lists read (each ends in the written time).
 */
export function logFilterConditions(
  kind: 'access' | 'error',
  t: typeof accessLogs | typeof errorLogs,
  q: LogFilters,
): SQL[] {
  return [
    ...(q.recordId ? [kind === 'access' ? eq(accessLogs.recordId, q.recordId) : sql`false`] : []),
    ...(q.userId ? [eq(t.userId, q.userId)] : []),
    ...(q.machineNumber ? [eq(t.machineNumber, q.machineNumber)] : []),
    ...dayRange(t.createdAt, q.from, q.to),
  ];
}
