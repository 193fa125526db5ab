/*
 * Device Management's exportable columns without zod: the console's Export CSV needs only these on
 * the list's first screen. device-export.ts re-exports them beside the export's query schema.
 */

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
  licenceState: 'Licence',
  city: 'City',
  country: 'Country',
  address: 'Address',
  latitude: 'Latitude',
  longitude: 'Longitude',
  createdAt: 'Created At',
} as const;
export type DeviceExportColumn = keyof typeof deviceExportColumns;
