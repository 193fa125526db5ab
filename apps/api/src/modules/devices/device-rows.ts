import type { Device, SubscriptionSummary } from '@app/contract/devices';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { customers } from '#api/db/schema/customers.ts';
import { devices } from '#api/db/schema/devices.ts';
import { subscriptionsFromJson, type SubscriptionJson } from './device-subscriptions.ts';

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
  appPackage: devices.appPackage,
  licenceState: devices.licenceState,
  licencePaidThrough: devices.licencePaidThrough,
  licenceGraceUntil: devices.licenceGraceUntil,
  customerId: devices.customerId,
  // The holder's name (decision 087): one primary-key probe per row of a page.
  customerName: sql<
    string | null
  >`(select ${customers.name} from ${customers} where ${customers.id} = ${devices.customerId})`,
};
export type DeviceListRow = Omit<
  DeviceRow,
  | 'searchText'
  | 'reportedLatitude'
  | 'reportedLongitude'
  | 'mapLatitude'
  | 'mapLongitude'
  // The list shows the licence's state and its dates; the rest is the Licence card's (modules/licences).
  | 'licenceActiveUntil'
  | 'licenceVersion'
  | 'licenceSince'
  // The maintenance window and busy flag are the Maintenance window card's (modules/maintenance-windows).
  | 'busySince'
  | 'maintenanceWindow'
  | 'maintenanceWindowGroupId'
  // Settings are the Settings card's (modules/machine-settings).
  | 'settingsOwn'
  | 'settingsFromGroups'
  | 'settingsVersion'
  | 'settingsChangedAt'
  | 'settingsAppliedVersion'
  | 'settingsAppliedAt'
  // What an update check was told to wait for: the rollout's progress (modules/app-updates).
  | 'updateWaitingReleaseId'
  | 'updateWaitingReason'
> & { customerName: string | null };

type Timestamps = 'createdAt' | 'updatedAt' | 'lastSeenAt' | 'licencePaidThrough' | 'licenceGraceUntil';
type DeviceFields = Omit<DeviceListRow, Timestamps>;
type DeviceTimes = {
  createdAt: string;
  updatedAt: string;
  lastSeenAt: string | null;
  online: boolean;
  licencePaidThrough: string | null;
  licenceGraceUntil: string | null;
};

const deviceOf = (row: DeviceFields, subs: SubscriptionSummary[], times: DeviceTimes): Device => ({
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
  ...times,
  appVersionCode: row.appVersionCode,
  appVersionName: row.appVersionName,
  appPackage: row.appPackage,
  licenceState: row.licenceState,
  customerId: row.customerId,
  customerName: row.customerName,
});

/** `onlineSince`: a machine seen at or after this time (ms) is online. */
export const toDevice = (row: DeviceListRow, subs: SubscriptionSummary[], onlineSince: number): Device =>
  deviceOf(row, subs, {
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    online: row.lastSeenAt !== null && row.lastSeenAt.getTime() >= onlineSince,
    licencePaidThrough: row.licencePaidThrough?.toISOString() ?? null,
    licenceGraceUntil: row.licenceGraceUntil?.toISOString() ?? null,
  });

/** A timestamp as JavaScript's toISOString() writes it (both cut sub-millisecond digits). */
const isoUtc = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A device row as one JSON object, timestamps already in ISO form. A page read as one JSON value is
 * one field for the driver to decode instead of about twenty per row: on the embedded database
 * PGlite's JavaScript protocol parser was the largest cost of the device list (decision 044).
 */
export const deviceJsonOf = (subscriptions: SQL) => sql`json_build_object(
  'id', ${devices.id}, 'machineNumber', ${devices.machineNumber}, 'serialNumber', ${devices.serialNumber},
  'location', ${devices.location}, 'latitude', ${devices.latitude}, 'longitude', ${devices.longitude},
  'city', ${devices.city}, 'country', ${devices.country}, 'address', ${devices.address},
  'status', ${devices.status}, 'subscriptionStatus', ${devices.subscriptionStatus},
  'createdAt', ${isoUtc(devices.createdAt)}, 'updatedAt', ${isoUtc(devices.updatedAt)},
  'lastSeenAt', ${isoUtc(devices.lastSeenAt)}, 'appVersionCode', ${devices.appVersionCode},
  'appVersionName', ${devices.appVersionName}, 'appPackage', ${devices.appPackage},
  'licenceState', ${devices.licenceState},
  'licencePaidThrough', ${isoUtc(devices.licencePaidThrough)},
  'licenceGraceUntil', ${isoUtc(devices.licenceGraceUntil)}, 'customerId', ${devices.customerId},
  'customerName', ${deviceColumns.customerName}, 'subs', ${subscriptions})`;

export type DeviceJson = Omit<DeviceListRow, Timestamps> & {
  createdAt: string;
  updatedAt: string;
  lastSeenAt: string | null;
  licencePaidThrough: string | null;
  licenceGraceUntil: string | null;
  subs: SubscriptionJson[];
};

/** `toDevice` for a row read through `deviceJsonOf`; `at` is now in ms. */
export const deviceFromJson = (row: DeviceJson, at: number, onlineSince: number): Device =>
  deviceOf(row, subscriptionsFromJson(row.subs, at), {
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastSeenAt: row.lastSeenAt,
    online: row.lastSeenAt !== null && Date.parse(row.lastSeenAt) >= onlineSince,
    licencePaidThrough: row.licencePaidThrough,
    licenceGraceUntil: row.licenceGraceUntil,
  });
