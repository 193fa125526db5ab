import { z } from 'zod';
import { deviceSortKeys, deviceStatuses, onlineFilters, sortDirections, versionText } from './devices.ts';
import { envelope } from './envelope.ts';
import { facetValueSchema } from './facets.ts';
import { licenceStates } from './licences.ts';
import { pageQuery, strictObject } from './fields.ts';

/** The Settings facet: machines whose settings are not applied yet, or are. */
export const settingsFilters = ['drift', 'applied'] as const;
export const settingsFilterLabels = { drift: 'Not applied (drift)', applied: 'Applied' } as const;
/** The Commands filter and the dashboard's figure: a command failed within this many days. */
export const failedCommandDays = 7;

/** A facet value meaning "not set": no subscription, or no app version reported yet. */
export const noneFilter = 'none';

/*
 * The App version facet's values (issue 35 item 2). Versions are counted per app, so a value names
 * the app's package and the version code, joined by the last ':' ("com.treatment.device:40"); an
 * empty package (":40") is the machines whose app reported the code without its package (older
 * apps). A bare code ("40", what links and saved views made before carry) is that code in any app,
 * and 'none' the machines that never reported a version.
 */
export type AppVersionFilter =
  /** code null: never reported; appPackage undefined: any app, null: an app that did not say. */
  { code: number | null; appPackage?: string | null };
/** The largest versionCode a heartbeat may send (PostgreSQL's integer). */
const maxReportedVersionCode = 2_147_483_647;
/** The heartbeat's appName is at most 120 characters (device-api.ts), its code at most 10 digits. */
const appVersionFilterMaxLength = 120 + 1 + 10;
const appVersionFilterMessage =
  'appVersion must be none, a version code (40) or an app and version code (com.treatment.device:40)';

const appVersionFilterPattern = /^(?:none|(?:([\s\S]*):)?(\d{1,10}))$/;

/** The facet value of machines on `code` of `appPackage` (null: the app did not say which). */
export const appVersionFilterValue = (code: number, appPackage: string | null): string =>
  `${appPackage ?? ''}:${code}`;

/** What an `appVersion` value asks for; undefined when it is not one. */
export function parseAppVersionFilter(value: string): AppVersionFilter | undefined {
  if (value === noneFilter) return { code: null };
  const match = appVersionFilterPattern.exec(value);
  if (!match) return undefined;
  const code = Number(match[2]);
  if (code > maxReportedVersionCode) return undefined;
  const appPackage = match[1];
  return appPackage === undefined ? { code } : { code, appPackage: appPackage === '' ? null : appPackage };
}

/**
 * An App version option's label: "com.treatment.device 1.3.0 (40)", "1.3.0 (40), app unknown",
 * "Never reported"; a bare code (an old link's) is "40, any app". `versionName`: what the machines
 * reported with the code (a value alone has only the code).
 */
export function appVersionFilterLabel(filter: AppVersionFilter, versionName: string | null = null): string {
  if (filter.code === null) return 'Never reported';
  const version = versionText(filter.code, versionName);
  if (filter.appPackage === undefined) return `${version}, any app`;
  return filter.appPackage === null ? `${version}, app unknown` : `${filter.appPackage} ${version}`;
}

const statusValues = deviceStatuses.map(String) as ['1', '2'];
const subscriptionStatusValues = ['1', '2', '3', '4', noneFilter] as const;
const place = (name: string) =>
  z.string().trim().min(1, `${name} must not be empty`).max(100, `${name} must be at most 100 characters`);

/**
 * The device list's filters (issue 17 item 2), shared by the list, the fleet map and the list's
 * export so each shows the same machines. Query strings carry text, so statuses stay strings here.
 */
export const deviceFilterShape = {
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  /** Ours (the dashboard's figures link here): Online, Offline (quiet past the offline time) or Never seen. */
  online: z.enum(onlineFilters, { error: `online must be one of ${onlineFilters.join(', ')}` }).optional(),
  status: z.enum(statusValues, { error: 'status must be 1 (Inactive) or 2 (Active)' }).optional(),
  subscriptionStatus: z
    .enum(subscriptionStatusValues, {
      error: `subscriptionStatus must be one of ${subscriptionStatusValues.join(', ')}`,
    })
    .optional(),
  /** Exact place names, as the facet lists offer them. */
  country: place('country').optional(),
  city: place('city').optional(),
  /** An app and version the machines reported (see parseAppVersionFilter), or 'none'. */
  appVersion: z
    .string()
    .max(appVersionFilterMaxLength, {
      error: `appVersion must be at most ${appVersionFilterMaxLength} characters`,
      abort: true,
    })
    .regex(appVersionFilterPattern, { error: appVersionFilterMessage, abort: true })
    // The pattern is the OpenAPI document's; the code's range is checked here.
    .refine((value) => parseAppVersionFilter(value) !== undefined, appVersionFilterMessage)
    .optional(),
  /** Ours (issue 34): the machine's licence state. */
  licence: z.enum(licenceStates, { error: `licence must be one of ${licenceStates.join(', ')}` }).optional(),
  /** Ours (the dashboard's "lapsing" figure links here): an active licence whose paid time ends within N days. */
  licenceEndsWithin: z.coerce
    .number({ error: 'licenceEndsWithin must be a number of days' })
    .int('licenceEndsWithin must be a whole number of days')
    .min(1, 'licenceEndsWithin must be at least 1')
    .max(366, 'licenceEndsWithin must be at most 366')
    .optional(),
  /** Ours (issue 37): settings not yet applied by the machine (drift), or applied. */
  settings: z
    .enum(settingsFilters, { error: `settings must be one of ${settingsFilters.join(', ')}` })
    .optional(),
  /** Ours (issue 37): a command failed on the machine within the last `failedCommandDays`. */
  commands: z.enum(['failed'], { error: 'commands must be failed' }).optional(),
  /** Ours (issue 39): the customer holding the machine (its id), or 'none': held by no customer. */
  customer: z
    .union([z.literal(noneFilter), z.uuid()], { error: 'customer must be a customer id or none' })
    .optional(),
};
export type DeviceFilterQuery = {
  [K in keyof typeof deviceFilterShape]?: z.output<(typeof deviceFilterShape)[K]>;
};

/** GET machine: page, limit, sort, direction (default createdAt descending) and the filters above. */
export const deviceListQuerySchema = pageQuery.extend({
  ...deviceFilterShape,
  sort: z
    .enum(deviceSortKeys, { error: `sort must be one of ${deviceSortKeys.join(', ')}` })
    .default('createdAt'),
  direction: z.enum(sortDirections, { error: 'direction must be asc or desc' }).optional(),
});

export const deviceFacetsSchema = z.object({
  countries: z.array(facetValueSchema),
  /** Within `country` when the request names one. */
  cities: z.array(facetValueSchema),
  appVersions: z.array(facetValueSchema),
  /** Every licence state, with how many machines are in it (issue 34). */
  licences: z.array(facetValueSchema),
  /** Ours (issue 39): the customers holding machines, most first, and 'none' (no customer). */
  customers: z.array(facetValueSchema).optional(),
});
export type DeviceFacets = z.infer<typeof deviceFacetsSchema>;
export const deviceFacetsQuerySchema = strictObject({ country: place('country').optional() });
export const deviceFacetsResponseSchema = envelope(deviceFacetsSchema);
/** The longest facet list returned; a fleet in more places than this is narrowed by search. */
export const facetValueLimit = 200;
