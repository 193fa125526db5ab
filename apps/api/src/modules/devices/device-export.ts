import { and, desc, sql } from 'drizzle-orm';
import {
  deviceExportColumns,
  type DeviceExportColumn,
  type DeviceExportQuery,
} from '@app/contract/device-export';
import { deviceStatusLabels, subscriptionStatusLabel, type DeviceStatus } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { csvLine } from '#api/lib/csv.ts';
import { deviceFilterWhere } from './device-filters.ts';
import { deviceColumns, type DeviceListRow } from './device-rows.ts';

/** Rows read per query: a batch is all the export holds in memory at once, whatever its size. */
export const deviceExportBatch = 1000;
const defaultColumns: DeviceExportColumn[] = ['machineNumber', 'serialNumber'];

type Cell = (row: DeviceListRow, onlineSince: number) => string | number | null;
const cells: Record<DeviceExportColumn, Cell> = {
  machineNumber: (r) => r.machineNumber,
  serialNumber: (r) => r.serialNumber,
  location: (r) => r.location,
  status: (r) => deviceStatusLabels[r.status as DeviceStatus] ?? r.status,
  subscriptionStatus: (r) => subscriptionStatusLabel(r.subscriptionStatus),
  lastSeenAt: (r) => r.lastSeenAt?.toISOString() ?? null,
  online: (r, since) =>
    r.lastSeenAt === null ? 'Never seen' : r.lastSeenAt.getTime() >= since ? 'Online' : 'Offline',
  appVersionCode: (r) =>
    r.appVersionCode === null ? null : `${r.appVersionName ?? ''} (${r.appVersionCode})`.trim(),
  city: (r) => r.city,
  country: (r) => r.country,
  address: (r) => r.address,
  latitude: (r) => r.latitude,
  longitude: (r) => r.longitude,
  createdAt: (r) => r.createdAt.toISOString(),
};

/**
 * The filtered device list as CSV, newest first, in batches read by keyset (created_at, id) through
 * the list's own index: memory stays one batch whatever the fleet's size, and a slow download holds
 * the next query back (the stream asks for more only when the client has read). `counted` hears
 * the rows written so far, also when the client leaves early.
 */
export async function* deviceExportCsv(
  db: Db,
  query: DeviceExportQuery,
  { now, offlineMinutes, counted }: { now: Date; offlineMinutes: number; counted: (rows: number) => void },
): AsyncGenerator<string> {
  const columns = query.columns ?? defaultColumns;
  const onlineSince = now.getTime() - offlineMinutes * 60_000;
  const { where } = deviceFilterWhere(query, new Date(onlineSince));
  // A byte order mark, so a spreadsheet reads the file as UTF-8.
  yield `\uFEFF${csvLine(columns.map((c) => deviceExportColumns[c]))}`;
  // The cursor's time as the database writes it: a JavaScript Date would drop its microseconds.
  let after: { at: string; id: string } | null = null;
  let written = 0;
  for (;;) {
    const keyset = after
      ? sql`(${devices.createdAt}, ${devices.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : undefined;
    const rows: (DeviceListRow & { at: string })[] = await db
      .select({ ...deviceColumns, at: sql<string>`${devices.createdAt}::text` })
      .from(devices)
      .where(and(where, keyset))
      .orderBy(desc(devices.createdAt), desc(devices.id))
      .limit(deviceExportBatch);
    if (rows.length === 0) return;
    yield rows.map((row) => csvLine(columns.map((c) => cells[c](row, onlineSince)))).join('');
    written += rows.length;
    counted(written);
    if (rows.length < deviceExportBatch) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: last.id };
  }
}
