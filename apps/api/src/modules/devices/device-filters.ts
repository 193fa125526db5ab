import { and, eq, gte, isNull, lt, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  failedCommandDays,
  noneFilter,
  parseAppVersionFilter,
  type DeviceFilterQuery,
} from '@app/contract/device-filters';
import { appVersionSortKey, devices } from '#api/db/schema/devices.ts';
import { containsPattern } from '#api/lib/pagination.ts';

export type DeviceFilters = DeviceFilterQuery;

/** The columns the facets test: the devices' own, or device_facet_counts' (device-counts.ts). */
export type FacetColumns = {
  status: SQLWrapper;
  subscriptionStatus: SQLWrapper;
  country: SQLWrapper;
  city: SQLWrapper;
  /** The App Version sort key: the code, -1 for never reported. */
  appVersionKey: SQLWrapper;
  appPackage: SQLWrapper;
  licenceState: SQLWrapper;
};

const deviceFacetColumns: FacetColumns = {
  status: devices.status,
  subscriptionStatus: devices.subscriptionStatus,
  country: devices.country,
  city: devices.city,
  appVersionKey: appVersionSortKey(devices),
  appPackage: devices.appPackage,
  licenceState: devices.licenceState,
};

/**
 * The App version facet: a code (the App Version sort key, -1 for never reported) and, when the value
 * names one, the app's package (none said: IS NULL). devices_app_version_package_id_idx holds both,
 * so one app's few machines on a code most of the fleet runs are an index range, not that code's
 * every row; a bare code takes devices_app_version_code_id_idx as before.
 */
function appVersionWhere(value: string, columns: FacetColumns): SQL | undefined {
  const filter = parseAppVersionFilter(value);
  // The contract refused anything else with a 400 before a query was built.
  if (!filter) return sql`false`;
  const code = sql`${columns.appVersionKey} = ${filter.code ?? -1}`;
  if (filter.appPackage === undefined) return code;
  return and(
    code,
    filter.appPackage === null ? isNull(columns.appPackage) : eq(columns.appPackage, filter.appPackage),
  );
}

/** The equality facets (all but the licence's end), on `columns`. */
export function facetConditions(filters: DeviceFilters, columns: FacetColumns): SQL[] {
  const { subscriptionStatus, appVersion } = filters;
  return [
    filters.status ? eq(columns.status, Number(filters.status)) : undefined,
    subscriptionStatus === noneFilter
      ? isNull(columns.subscriptionStatus)
      : subscriptionStatus
        ? eq(columns.subscriptionStatus, Number(subscriptionStatus))
        : undefined,
    filters.country ? eq(columns.country, filters.country) : undefined,
    filters.city ? eq(columns.city, filters.city) : undefined,
    appVersion ? appVersionWhere(appVersion, columns) : undefined,
    filters.licence ? eq(columns.licenceState, filters.licence) : undefined,
  ].filter((c): c is SQL => c !== undefined);
}

/**
 * How a search is tested. `trigram`: `LIKE '%term%'`, which the trigram index serves (finding the few
 * machines a rare term names). `scan`: the same test as `strpos`, which no index serves, so the
 * planner walks the sort order's index and tests each machine (a common term fills a page within a
 * few hundred; through the trigram index it would first collect every match). `{ word }`: the
 * trigram index asked for one rare word of the term only, the whole term tested with `strpos` on
 * what it finds: a term like "sc-00123" otherwise asks the index for trigrams of "sc", which every
 * machine number has (12 ms, against 2.6 for "00123" alone, at 1,000,000 machines). Same machines
 * every way.
 */
export type SearchTest = 'trigram' | 'scan' | { word: string };

/**
 * The device list's filters as one condition (undefined: none), shared by the list, its export and
 * the fleet map so all show the same machines. `onlineSince`: a machine seen at or after it is
 * online (the Online column's rule; the plain last_seen_at index serves these ranges, decision 050).
 * Each facet is an equality on a column that has its own index (the sort indexes), so a facet alone
 * is an index range and combines with the others by the planner's choice. `at` is now: an active
 * licence "ends within N days" when its active time ends before `at` + N days (the partial index
 * devices_licence_active_until_idx holds exactly the active ones).
 */
export function deviceFilterWhere(
  filters: DeviceFilters,
  onlineSince: Date,
  at: Date,
  searchTest: SearchTest = 'trigram',
) {
  const search = filters.search?.toLowerCase();
  const contains = (text: string) => sql`strpos(${devices.searchText}, ${text}) > 0`;
  const searched = search
    ? searchTest === 'trigram'
      ? sql`${devices.searchText} like ${containsPattern(search)}`
      : searchTest === 'scan'
        ? contains(search)
        : sql`${devices.searchText} like ${containsPattern(searchTest.word)} and ${contains(search)}`
    : undefined;
  const byOnline =
    filters.online &&
    {
      online: gte(devices.lastSeenAt, onlineSince),
      offline: lt(devices.lastSeenAt, onlineSince),
      never: isNull(devices.lastSeenAt),
    }[filters.online];
  const { licenceEndsWithin, settings, commands, customer } = filters;
  const facets = facetConditions(filters, deviceFacetColumns);
  // Drift is what the partial index devices_settings_drift_idx holds.
  const drift = sql`${devices.settingsVersion} > coalesce(${devices.settingsAppliedVersion}, 0)`;
  if (settings) facets.push(settings === 'drift' ? drift : sql`not (${drift})`);
  if (commands === 'failed')
    facets.push(sql`${devices.id} in (select device_id from machine_commands
      where state = 'failed' and finished_at >= ${new Date(at.getTime() - failedCommandDays * 86_400_000)})`);
  // The holder (decision 087): devices_customer_id_id_idx.
  if (customer)
    facets.push(customer === noneFilter ? isNull(devices.customerId) : eq(devices.customerId, customer));
  if (licenceEndsWithin)
    facets.push(
      and(
        eq(devices.licenceState, 'active'),
        lte(devices.licenceActiveUntil, new Date(at.getTime() + licenceEndsWithin * 86_400_000)),
      )!,
    );
  return {
    searched,
    /** Anything besides search and the online state (those two have counts of their own). */
    faceted: facets.length > 0,
    /** Only equality facets: device_facet_counts counts them exactly (device-counts.ts). */
    facetsOnly:
      facets.length > 0 &&
      !searched &&
      !byOnline &&
      !licenceEndsWithin &&
      !settings &&
      !commands &&
      !customer,
    where: and(searched, byOnline, ...facets) as SQL | undefined,
  };
}
