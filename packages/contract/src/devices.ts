import { z } from 'zod';
import { envelope } from './envelope.ts';
import { pageQuery, requiredText, strictObject } from './fields.ts';
import { licenceStateLabels, licenceStates, type LicenceState } from './licences.ts';

/** docs/product.md §5.5 "Device": every form field is required; the coordinates must be numbers. */
export const deviceMessages = {
  machineNumberRequired: 'Machine number is required',
  serialNumberRequired: 'Serial number is required',
  locationRequired: 'Location is required',
  latitudeRequired: 'Latitude is required',
  longitudeRequired: 'Longitude is required',
  cityRequired: 'City is required',
  countryRequired: 'Country is required',
  addressRequired: 'Address is required',
  latitudeNumber: 'Latitude must be a number',
  longitudeNumber: 'Longitude must be a number',
  // Ours: the spec names no server texts for these.
  latitudeRange: 'Latitude must be between -90 and 90',
  longitudeRange: 'Longitude must be between -180 and 180',
  statusRequired: 'Status is required',
  statusInvalid: 'Status must be 1 (Inactive) or 2 (Active)',
  machineNumberTaken: 'A device with this machine number already exists',
  serialNumberTaken: 'A device with this serial number already exists',
  machineNumberLocked: 'Machine number cannot be changed',
  serialNumberLocked: 'Serial number cannot be changed',
  notFound: 'Device not found',
  invalidId: 'Invalid device id',
  added: 'Device added',
  updated: 'Device updated successfully',
  /** docs/product.md §8: the toast after the list's status select. */
  statusUpdated: 'Status updated successfully!',
  /** docs/product.md §2.8: the list's empty text. */
  empty: 'No customers found.',
  /** docs/product.md §8: default empty-result message. */
  noneFound: 'No Device found',
  /** Ours: Device Details' app version history before the machine's first heartbeat. */
  appVersionsEmpty: 'No app version reported yet.',
} as const;

/** docs/product.md §3.2: 1 Inactive, 2 Active. */
export const deviceStatuses = [1, 2] as const;
export type DeviceStatus = (typeof deviceStatuses)[number];
export const deviceStatusLabels: Record<DeviceStatus, string> = { 1: 'Inactive', 2: 'Active' };

/** docs/product.md §3.4: subscription status codes; anything else shows N/A. */
export const subscriptionStatusLabels: Record<number, string> = {
  1: 'Pending',
  2: 'Complete',
  3: 'Expired',
  4: 'Failed',
};
export const subscriptionStatusLabel = (status: number | null | undefined): string =>
  (status != null && subscriptionStatusLabels[status]) || 'N/A';

// Select values and JSON numbers both arrive; '1' and 1 mean the same status.
export const deviceStatusSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*[12]\s*$/.test(v) ? Number(v) : v),
  z.literal(deviceStatuses, {
    error: (i) => (i.input == null ? deviceMessages.statusRequired : deviceMessages.statusInvalid),
  }),
);

/** A coordinate typed into a text box or sent as a number; blank means missing. */
const coordinate = (required: string, notNumber: string, range: string, limit: number) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const trimmed = v.trim();
      if (trimmed === '') return undefined;
      const n = Number(trimmed);
      return Number.isFinite(n) ? n : v;
    },
    z
      .number({ error: (i) => (i.input == null ? required : notNumber) })
      .min(-limit, range)
      .max(limit, range),
  );

const formFields = {
  machineNumber: requiredText(deviceMessages.machineNumberRequired, 64),
  serialNumber: requiredText(deviceMessages.serialNumberRequired, 64),
  location: requiredText(deviceMessages.locationRequired),
  latitude: coordinate(
    deviceMessages.latitudeRequired,
    deviceMessages.latitudeNumber,
    deviceMessages.latitudeRange,
    90,
  ),
  longitude: coordinate(
    deviceMessages.longitudeRequired,
    deviceMessages.longitudeNumber,
    deviceMessages.longitudeRange,
    180,
  ),
  city: requiredText(deviceMessages.cityRequired, 120),
  country: requiredText(deviceMessages.countryRequired, 120),
  address: requiredText(deviceMessages.addressRequired, 500),
};
export const deviceFormKeys = Object.keys(formFields) as (keyof typeof formFields)[];

/** The add/edit modal's form (the web form and the server use this one schema). */
export const deviceFormSchema = strictObject(formFields);
export type DeviceFormInput = z.input<typeof deviceFormSchema>;
export type DeviceForm = z.output<typeof deviceFormSchema>;

/** POST machine/add: the form, and optionally the first status (Active when left out). */
export const deviceCreateBodySchema = strictObject({ ...formFields, status: deviceStatusSchema.optional() });
export type DeviceCreateBody = z.output<typeof deviceCreateBodySchema>;

/**
 * PUT machine/{id} takes either the whole form (machineNumber and serialNumber must stay as they
 * are) or, from the list's status select, only `status`. A body carrying any form field is a form:
 * its missing fields get their 'is required' message; a body with none must carry `status`.
 */
export const deviceUpdateBodySchema = z.preprocess(
  (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const record = body as Record<string, unknown>;
    const isForm = deviceFormKeys.some((k) => k in record);
    if (!isForm) return { status: null, ...record };
    return { ...Object.fromEntries(deviceFormKeys.map((k) => [k, null])), ...record };
  },
  strictObject({
    ...Object.fromEntries(Object.entries(formFields).map(([k, schema]) => [k, schema.optional()])),
    status: deviceStatusSchema.optional(),
  } as { [K in keyof typeof formFields]: z.ZodOptional<(typeof formFields)[K]> } & {
    status: z.ZodOptional<typeof deviceStatusSchema>;
  }),
);
export type DeviceUpdateBody = z.output<typeof deviceUpdateBodySchema>;

export const deviceSortKeys = [
  'createdAt',
  'machineNumber',
  'serialNumber',
  'location',
  'city',
  'country',
  'status',
  'subscriptionStatus',
  // Check-ins from the machine's app (the column chooser's optional Last Seen, Online and App Version).
  'lastSeenAt',
  'appVersionCode',
  // The licence (issue 34): by state, in the order of its labels (Active, Exempt, In grace, Lapsed, Unlicensed).
  'licenceState',
] as const;
export type DeviceSortKey = (typeof deviceSortKeys)[number];
export const sortDirections = ['asc', 'desc'] as const;
export type SortDirection = (typeof sortDirections)[number];

export const onlineFilters = ['online', 'offline', 'never'] as const;
export type OnlineFilter = (typeof onlineFilters)[number];
export const onlineFilterLabels: Record<OnlineFilter, string> = {
  online: 'Online',
  offline: 'Offline',
  never: 'Never seen',
};

export const idParamSchema = (invalid: string) => z.object({ id: z.uuid({ error: invalid }) });
export const deviceIdParamSchema = idParamSchema(deviceMessages.invalidId);

/** docs/product.md §3.2: the first item is the one shown (status, createdAt, expiredAt when recurring). */
export const subscriptionSummarySchema = z.object({
  _id: z.string(),
  status: z.number().int(),
  createdAt: z.string(),
  expiredAt: z.string().nullable(),
  isRecurring: z.boolean(),
  planType: z.string().nullable(),
  amount: z.number(),
  /** Until when its payments license the machine (decision 068); null while unpaid. */
  paidThrough: z.string().nullable(),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummarySchema>;

export const deviceSchema = z.object({
  _id: z.string(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  location: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  city: z.string(),
  country: z.string(),
  address: z.string(),
  status: z.number().int(),
  subscriptionStatus: z.number().int().nullable(),
  subscriptionDetails: z.array(subscriptionSummarySchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The machine's last call to the device API (null: never seen). */
  lastSeenAt: z.string().nullable(),
  /** Seen within DEVICE_OFFLINE_MINUTES; false when quiet longer or never seen. */
  online: z.boolean(),
  appVersionCode: z.number().int().nullable(),
  appVersionName: z.string().nullable(),
  /** The app's package the heartbeat named with the version (null: never said, older apps). */
  appPackage: z.string().nullable(),
  /** The machine's licence (decision 068), as kept on its row; its Licence card reads the rest. */
  licenceState: z.enum(licenceStates),
  licencePaidThrough: z.string().nullable(),
  licenceGraceUntil: z.string().nullable(),
  /** Ours (issue 39): the customer holding it now, and its name; null: at the supplier. */
  customerId: z.string().nullable().optional(),
  customerName: z.string().nullable().optional(),
});
export type Device = z.infer<typeof deviceSchema>;

/** A reported version: "1.3.0 (40)", or the code alone when the app sent no name. */
export const versionText = (code: number, name: string | null): string =>
  name ? `${name} (${code})` : String(code);

/**
 * The App Version column's words, the export's too: "com.treatment.device 1.3.0 (40)", without the
 * package when the app did not name it (older apps); null before the machine's first report.
 */
export function appVersionText(
  device: Pick<Device, 'appPackage' | 'appVersionCode' | 'appVersionName'>,
): string | null {
  const { appPackage, appVersionCode: code, appVersionName: name } = device;
  const version = code === null ? name : versionText(code, name);
  if (!version) return null;
  return appPackage ? `${appPackage} ${version}` : version;
}

/**
 * The Licence column's words (issue 34): the state's label and the date that matters to it, e.g.
 * "In grace until 12-03-2027". `date` writes a date (the console's DD-MM-YYYY in the admin's time
 * zone; the export's UTC day).
 */
export function licenceText(
  device: { licenceState: LicenceState; licencePaidThrough: string | null; licenceGraceUntil: string | null },
  date: (iso: string) => string,
): string {
  const label = licenceStateLabels[device.licenceState];
  const { licencePaidThrough: paidThrough, licenceGraceUntil: graceUntil } = device;
  if (device.licenceState === 'active' && paidThrough) return `${label} until ${date(paidThrough)}`;
  if (device.licenceState === 'grace' && graceUntil) return `${label} until ${date(graceUntil)}`;
  if (device.licenceState === 'lapsed' && graceUntil) return `${label} since ${date(graceUntil)}`;
  return label;
}

export const deviceListSchema = z.object({
  allDevices: z.array(deviceSchema),
  totalPages: z.number().int(),
  total: z.number().int(),
  /** True when a search matches more devices than are counted exactly; total is then the planner's estimate. */
  totalIsEstimate: z.boolean(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type DeviceList = z.infer<typeof deviceListSchema>;

export const deviceListResponseSchema = envelope(deviceListSchema);
export const deviceResponseSchema = envelope(deviceSchema);

/** One change of the app version a machine reported (Device Details' version history), newest first. */
export const deviceAppVersionSchema = z.object({
  versionCode: z.number().int(),
  versionName: z.string().nullable(),
  /** When its heartbeat first named this version. */
  firstSeenAt: z.string(),
});
export type DeviceAppVersion = z.infer<typeof deviceAppVersionSchema>;

export const deviceAppVersionListQuerySchema = pageQuery;
export const deviceAppVersionListSchema = z.object({
  versions: z.array(deviceAppVersionSchema),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type DeviceAppVersionList = z.infer<typeof deviceAppVersionListSchema>;
export const deviceAppVersionListResponseSchema = envelope(deviceAppVersionListSchema);
