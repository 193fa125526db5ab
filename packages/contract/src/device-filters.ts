import { z } from 'zod';
import { deviceSortKeys, deviceStatuses, onlineFilters, sortDirections } from './devices.ts';
import { envelope } from './envelope.ts';
import { licenceStates } from './licences.ts';
import { pageQuery, strictObject } from './fields.ts';

/** A facet value meaning "not set": no subscription, or no app version reported yet. */
export const noneFilter = 'none';

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
  /** An app version code the machines reported, or 'none' for machines that never reported one. */
  appVersion: z
    .string()
    .max(9, 'appVersion must be a version code or none')
    .regex(/^(none|\d{1,9})$/, 'appVersion must be a version code or none')
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

/** The values the list's facets offer, each with how many machines have it (most first). */
const facetValue = z.object({ value: z.string(), label: z.string(), count: z.number().int() });
export type FacetValue = z.infer<typeof facetValue>;
export const deviceFacetsSchema = z.object({
  countries: z.array(facetValue),
  /** Within `country` when the request names one. */
  cities: z.array(facetValue),
  appVersions: z.array(facetValue),
  /** Every licence state, with how many machines are in it (issue 34). */
  licences: z.array(facetValue),
});
export type DeviceFacets = z.infer<typeof deviceFacetsSchema>;
export const deviceFacetsQuerySchema = strictObject({ country: place('country').optional() });
export const deviceFacetsResponseSchema = envelope(deviceFacetsSchema);
/** The longest facet list returned; a fleet in more places than this is narrowed by search. */
export const facetValueLimit = 200;
