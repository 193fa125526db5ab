import { sql } from 'drizzle-orm';
import type { OnlineFilter } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';

/** Counts arrive as numbers from the embedded database and as strings (bigint) from PostgreSQL. */
type Row = { total: number | string; online: number | string; never: number | string };

/**
 * Machines online, offline and never seen as of `at`, from what the database keeps (decision 050):
 * the whole minutes after the offline threshold from device_last_seen_minutes (kept by triggers,
 * migration 0029), only the threshold's own minute counted on the last_seen_at index, never seen
 * that table's '-infinity' row, the total table_row_counts['devices']. One statement, a few rows
 * read, whatever the fleet's size; the same rule as the device list's Online column.
 */
export function createOnlineCounts({ db, offlineMinutes }: { db: Db; offlineMinutes: number }) {
  return async function onlineCounts(at: Date): Promise<Record<OnlineFilter, number>> {
    const since = new Date(at.getTime() - offlineMinutes * 60_000);
    const minuteEnd = new Date(Math.floor(since.getTime() / 60_000) * 60_000 + 60_000);
    const result = (await db.execute(
      sql`select (select n from table_row_counts where table_name = 'devices') as total,
        (select coalesce(sum(n), 0) from device_last_seen_minutes where minute >= ${minuteEnd})
          + (select count(*) from devices where last_seen_at >= ${since} and last_seen_at < ${minuteEnd}) as online,
        (select coalesce(sum(n), 0) from device_last_seen_minutes where minute = '-infinity') as never`,
    )) as unknown as { rows: Row[] };
    const row = result.rows[0]!;
    const online = Number(row.online);
    const never = Number(row.never);
    return { online, never, offline: Math.max(0, Number(row.total) - online - never) };
  };
}
