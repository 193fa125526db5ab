import type { z } from 'zod';
import { deviceFilterShape } from './device-filters.ts';
import { exportColumnsQuery } from './export-columns.ts';
import { strictObject } from './fields.ts';

/** The device list's columns an export can hold, with their CSV headers (the list's own names). */
export const deviceExportColumns = {
  machineNumber: 'Machine Number',
  serialNumber: 'Serial Number',
  location: 'Location',
  status: 'Status',
  subscriptionStatus: 'Subscription Status',
  lastSeenAt: 'Last Seen',
  online: 'Online',
  appVersionCode: 'App Version',
  city: 'City',
  country: 'Country',
  address: 'Address',
  latitude: 'Latitude',
  longitude: 'Longitude',
  createdAt: 'Created At',
} as const;
export type DeviceExportColumn = keyof typeof deviceExportColumns;

/**
 * Issue 17 item 3: the device list's filters and the columns to write, in order (comma-separated;
 * machine and serial number when none are named).
 */
export const deviceExportQuerySchema = strictObject({
  ...deviceFilterShape,
  columns: exportColumnsQuery(deviceExportColumns),
});
export type DeviceExportQuery = z.output<typeof deviceExportQuerySchema>;
