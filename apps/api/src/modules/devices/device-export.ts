import { and, desc } from 'drizzle-orm';
import {
  deviceExportColumns,
  type DeviceExportColumn,
  type DeviceExportQuery,
} from '@app/contract/device-export';
import {
  appVersionText,
  deviceStatusLabels,
  licenceText,
  subscriptionStatusLabel,
  type DeviceStatus,
} from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { chosenColumns } from '#api/lib/export-columns.ts';
import { deviceFilterWhere } from './device-filters.ts';
import { deviceColumns, type DeviceListRow } from './device-rows.ts';

const defaultColumns: DeviceExportColumn[] = ['machineNumber', 'serialNumber'];

const cellsAsOf = (
  since: number,
): Record<DeviceExportColumn, (r: DeviceListRow) => string | number | null> => ({
  machineNumber: (r) => r.machineNumber,
  serialNumber: (r) => r.serialNumber,
  location: (r) => r.location,
  status: (r) => deviceStatusLabels[r.status as DeviceStatus] ?? r.status,
  subscriptionStatus: (r) => subscriptionStatusLabel(r.subscriptionStatus),
  lastSeenAt: (r) => r.lastSeenAt?.toISOString() ?? null,
  online: (r) =>
    r.lastSeenAt === null ? 'Never seen' : r.lastSeenAt.getTime() >= since ? 'Online' : 'Offline',
  // The list's words: the app's package where it named one, "com.treatment.device 1.3.0 (40)".
  appVersionCode: (r) => appVersionText(r),
  // The Licence column's words, its date as the UTC day (the console writes the admin's own).
  licenceState: (r) =>
    licenceText(
      {
        licenceState: r.licenceState,
        licencePaidThrough: r.licencePaidThrough?.toISOString() ?? null,
        licenceGraceUntil: r.licenceGraceUntil?.toISOString() ?? null,
      },
      (iso) => iso.slice(0, 10),
    ),
  city: (r) => r.city,
  country: (r) => r.country,
  address: (r) => r.address,
  latitude: (r) => r.latitude,
  longitude: (r) => r.longitude,
  createdAt: (r) => r.createdAt.toISOString(),
});

/** The filtered device list as CSV in the columns asked for, newest first (decision 056). */
export function deviceExportCsv(
  db: Db,
  query: DeviceExportQuery,
  { now, offlineMinutes, counted }: { now: Date; offlineMinutes: number; counted: (rows: number) => void },
): AsyncGenerator<string> {
  const onlineSince = now.getTime() - offlineMinutes * 60_000;
  const { where } = deviceFilterWhere(query, new Date(onlineSince), now);
  return keysetCsv(
    chosenColumns(deviceExportColumns, cellsAsOf(onlineSince), query.columns, defaultColumns),
    (after, size) =>
      db
        .select({ ...deviceColumns, cursorAt: cursorAt(devices.createdAt) })
        .from(devices)
        .where(and(where, afterCursor(devices.createdAt, devices.id, after)))
        .orderBy(desc(devices.createdAt), desc(devices.id))
        .limit(size),
    counted,
  );
}
