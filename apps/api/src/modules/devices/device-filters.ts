import { and, eq, gte, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { noneFilter, parseAppVersionFilter, type DeviceFilterQuery } from '@app/contract/device-filters';
import { appVersionSortKey, devices } from '#api/db/schema/devices.ts';
import { containsPattern } from '#api/lib/pagination.ts';

export type DeviceFilters = DeviceFilterQuery;

/**
 * The App version facet: a code (the App Version sort key, -1 for never reported) and, when the value
 * names one, the app's package (none said: IS NULL). devices_app_version_package_id_idx holds both,
 * so one app's few machines on a code most of the fleet runs are an index range, not that code's
 * every row; a bare code takes devices_app_version_code_id_idx as before.
 */
function appVersionWhere(value: string): SQL | undefined {
  const filter = parseAppVersionFilter(value);
  // The contract refused anything else with a 400 before a query was built.
  if (!filter) return sql`false`;
  const code = sql`${appVersionSortKey(devices)} = ${filter.code ?? -1}`;
  if (filter.appPackage === undefined) return code;
  return and(
    code,
    filter.appPackage === null ? isNull(devices.appPackage) : eq(devices.appPackage, filter.appPackage),
  );
}

/**
 * The device list's filters as one condition (undefined: none), shared by the list, its export and
 * the fleet map so all show the same machines. `onlineSince`: a machine seen at or after it is
 * online (the Online column's rule; the plain last_seen_at index serves these ranges, decision 050).
 * Each facet is an equality on a column that has its own index (the sort indexes), so a facet alone
 * is an index range and combines with the others by the planner's choice. `at` is now: an active
 * licence "ends within N days" when its active time ends before `at` + N days (the partial index
 * devices_licence_active_until_idx holds exactly the active ones).
 */
export function deviceFilterWhere(filters: DeviceFilters, onlineSince: Date, at: Date) {
  const search = filters.search?.toLowerCase();
  const searched = search ? sql`${devices.searchText} like ${containsPattern(search)}` : undefined;
  const byOnline =
    filters.online &&
    {
      online: gte(devices.lastSeenAt, onlineSince),
      offline: lt(devices.lastSeenAt, onlineSince),
      never: isNull(devices.lastSeenAt),
    }[filters.online];
  const { subscriptionStatus, appVersion, licenceEndsWithin } = filters;
  const facets = [
    filters.status ? eq(devices.status, Number(filters.status)) : undefined,
    subscriptionStatus === noneFilter
      ? isNull(devices.subscriptionStatus)
      : subscriptionStatus
        ? eq(devices.subscriptionStatus, Number(subscriptionStatus))
        : undefined,
    filters.country ? eq(devices.country, filters.country) : undefined,
    filters.city ? eq(devices.city, filters.city) : undefined,
    appVersion ? appVersionWhere(appVersion) : undefined,
    filters.licence ? eq(devices.licenceState, filters.licence) : undefined,
    licenceEndsWithin
      ? and(
          eq(devices.licenceState, 'active'),
          lte(devices.licenceActiveUntil, new Date(at.getTime() + licenceEndsWithin * 86_400_000)),
        )
      : undefined,
  ].filter((c): c is SQL => c !== undefined);
  return {
    searched,
    /** Anything besides search and the online state (those two have counts of their own). */
    faceted: facets.length > 0,
    where: and(searched, byOnline, ...facets) as SQL | undefined,
  };
}
