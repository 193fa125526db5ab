import type { z } from 'zod';
import { deviceFilterShape } from './device-filters.ts';
import { exportColumnsQuery } from './export-columns.ts';
import { strictObject } from './fields.ts';
import { deviceExportColumns } from './device-export-columns.ts';

// The columns alone, without zod, for Device Management's Export CSV (its first screen).
export { deviceExportColumns, type DeviceExportColumn } from './device-export-columns.ts';

/**
 * Issue 17 item 3: the device list's filters and the columns to write, in order (comma-separated;
 * machine and serial number when none are named).
 */
export const deviceExportQuerySchema = strictObject({
  ...deviceFilterShape,
  columns: exportColumnsQuery(deviceExportColumns),
});
export type DeviceExportQuery = z.output<typeof deviceExportQuerySchema>;
