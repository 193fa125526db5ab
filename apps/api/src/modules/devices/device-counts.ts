import { and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';
import { facetConditions, type DeviceFilters, type FacetColumns } from './device-filters.ts';
import { deviceSearchExactCountLimit } from './device-search.ts';

/**
 * device_facet_counts (migration 0044, decision 078): machines per combination of the facet columns,
 * kept by statement triggers on devices, so a count by facets sums a few hundred rows instead of
 * reading the index entries of every machine it counts. Read with SQL of its own: the table is
 * the triggers', not the Drizzle schema's (as device_last_seen_minutes).
 */
export const facetCounts = sql`device_facet_counts`;

/** Its columns, as the facets' conditions name them (the same conditions as the list's). */
export const facetCountColumns = {
  status: sql`device_facet_counts.status`,
  subscriptionStatus: sql`device_facet_counts.subscription_status`,
  country: sql`device_facet_counts.country`,
  city: sql`device_facet_counts.city`,
  appVersionKey: sql`coalesce(device_facet_counts.app_version_code, -1)`,
  appPackage: sql`device_facet_counts.app_package`,
  licenceState: sql`device_facet_counts.licence_state`,
} satisfies FacetColumns;

/** The exact number of machines the equality facets of `filters` match (all of them: none given). */
export async function facetTotal(db: Db, filters: DeviceFilters): Promise<number> {
  const where = and(...facetConditions(filters, facetCountColumns));
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(
      sql`select coalesce(sum(n), 0) as n from ${facetCounts}${where ? sql` where ${where}` : sql``}`,
    ),
  );
  return Number(row?.n ?? 0);
}

/** The planner's row estimate for a filter: instant, and close for btree columns with statistics. */
async function estimateWhere(db: Db, where: SQL) {
  const result = (await db.execute(
    sql`explain (format json) ${db
      .select({ one: sql`1` })
      .from(devices)
      .where(where)}`,
  )) as unknown as {
    rows: Record<string, unknown>[];
  };
  const raw = result.rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
  return Math.round(plan[0].Plan['Plan Rows']);
}

/**
 * Facets with the online state or the licence's end (no kept count has both): exact up to the
 * limit; past it (or when the planner expects far more) the planner's estimate.
 */
export async function filteredCount(db: Db, where: SQL): Promise<{ total: number; estimated: boolean }> {
  const guess = await estimateWhere(db, where);
  if (guess > 2 * deviceSearchExactCountLimit) return { total: guess, estimated: true };
  const capped = db
    .select({ one: sql`1` })
    .from(devices)
    .where(where)
    .limit(deviceSearchExactCountLimit + 1)
    .as('capped');
  const n = (await db.select({ n: sql<number>`count(*)::int` }).from(capped))[0]!.n;
  return n > deviceSearchExactCountLimit
    ? { total: Math.max(guess, n), estimated: true }
    : { total: n, estimated: false };
}
