import type { Device, SubscriptionSummary } from '@app/contract/devices';
import { devices } from '#api/db/schema/devices.ts';

type DeviceRow = typeof devices.$inferSelect;

/** Everything but the search text, which is an index input and never leaves the database. */
export const deviceColumns = {
  id: devices.id,
  machineNumber: devices.machineNumber,
  serialNumber: devices.serialNumber,
  location: devices.location,
  latitude: devices.latitude,
  longitude: devices.longitude,
  city: devices.city,
  country: devices.country,
  address: devices.address,
  status: devices.status,
  subscriptionStatus: devices.subscriptionStatus,
  createdAt: devices.createdAt,
  updatedAt: devices.updatedAt,
  lastSeenAt: devices.lastSeenAt,
  appVersionCode: devices.appVersionCode,
  appVersionName: devices.appVersionName,
};
export type DeviceListRow = Omit<DeviceRow, 'searchText' | 'reportedLatitude' | 'reportedLongitude'>;

/** `onlineSince`: a machine seen at or after this time (ms) is online. */
export const toDevice = (row: DeviceListRow, subs: SubscriptionSummary[], onlineSince: number): Device => ({
  _id: row.id,
  machineNumber: row.machineNumber,
  serialNumber: row.serialNumber,
  location: row.location,
  latitude: row.latitude,
  longitude: row.longitude,
  city: row.city,
  country: row.country,
  address: row.address,
  status: row.status,
  // The latest subscription decides, with an unpaid link past its expiry read as Expired.
  subscriptionStatus: subs[0]?.status ?? row.subscriptionStatus,
  subscriptionDetails: subs,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  online: row.lastSeenAt !== null && row.lastSeenAt.getTime() >= onlineSince,
  appVersionCode: row.appVersionCode,
  appVersionName: row.appVersionName,
});
