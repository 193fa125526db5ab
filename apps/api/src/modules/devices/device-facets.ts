import { sql, type SQL } from 'drizzle-orm';
import {
  appVersionFilterLabel,
  appVersionFilterValue,
  facetValueLimit,
  noneFilter,
  type DeviceFacets,
} from '@app/contract/device-filters';
import { noCustomerLabel } from '@app/contract/customers-texts';
import type { FacetValue } from '@app/contract/facets';
import { licenceStateLabels, licenceStates } from '@app/contract/licences';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { facetCountColumns, facetCounts } from './device-counts.ts';

/** How long a facet list is kept: places and versions change slowly. */
const keepMs = 30_000;
/** Kept answers at most (one per country asked for, plus the whole fleet's). */
const keptLimit = 500;

/**
 * The values the device list's facets offer (countries, cities, app versions, licence states), each
 * with its count. The counts group device_facet_counts (device-counts.ts), the machines per
 * combination of facet values that triggers keep, not the table: a few hundred rows at 1,000,000
 * machines, where grouping the table took 1 to 5 s. An answer is still kept for 30 s, and dropped
 * when a machine is added or moves to another place (a licence changes by the clock and by
 * payments: its counts may lag by those 30 s); the list's own count stays exact whatever this says.
 */
export function createDeviceFacets({ db, now }: { db: Db; now: () => Date }) {
  const kept = new Map<string, { at: number; answer: Promise<DeviceFacets> }>();
  const { country: countryOf, city: cityOf, licenceState } = facetCountColumns;

  const grouped = async (
    key: SQL,
    label: SQL,
    where?: SQL,
  ): Promise<{ key: string; label: string; count: number }[]> =>
    rowsOf<{ key: string; label: string; count: number }>(
      await db.execute(sql`
        select ${key}::text as key, ${label} as label, sum(n)::int as count from ${facetCounts}
        ${where ? sql`where ${where}` : sql``}
        group by ${key} order by sum(n) desc, ${key} limit ${facetValueLimit}`),
    );

  const places = async (column: SQL, where?: SQL): Promise<FacetValue[]> =>
    (await grouped(column, column, where))
      .filter((r) => r.key !== '')
      .map((r) => ({ value: r.key, label: r.label, count: r.count }));

  /**
   * The app versions, counted per app and code (issue 35 item 2): a technician app and the device app
   * on one code are two values. A machine that never reported a code is "Never reported" whatever
   * else its row holds; one whose app sent no package has an option of its own.
   */
  const appVersions = async (): Promise<FacetValue[]> => {
    const code = facetCountColumns.appVersionKey;
    const appPackage = sql`case when device_facet_counts.app_version_code is null then null else device_facet_counts.app_package end`;
    const rows = rowsOf<{ code: number; app_package: string | null; name: string | null; count: number }>(
      await db.execute(sql`
        select ${code} as code, ${appPackage} as app_package,
          max(device_facet_counts.app_version_name) as name, sum(n)::int as count
        from ${facetCounts}
        group by ${code}, ${appPackage} order by sum(n) desc, ${code}, ${appPackage} limit ${facetValueLimit}`),
    );
    return rows.map((r) =>
      r.code === -1
        ? { value: noneFilter, label: appVersionFilterLabel({ code: null }), count: r.count }
        : {
            value: appVersionFilterValue(r.code, r.app_package),
            label: appVersionFilterLabel({ code: r.code, appPackage: r.app_package }, r.name),
            count: r.count,
          },
    );
  };

  /**
   * The holders (decision 087), from the devices themselves (devices_customer_id_id_idx, an
   * index-only count) and kept like the rest; 'none' is the machines at the supplier.
   */
  const holders = async (): Promise<FacetValue[]> =>
    rowsOf<{ id: string | null; name: string | null; count: number }>(
      await db.execute(sql`
        select d.customer_id as id, (select name from customers c where c.id = d.customer_id) as name,
          count(*)::int as count
        from (select customer_id from devices) d
        group by d.customer_id order by count(*) desc, d.customer_id limit ${facetValueLimit}`),
    ).map((r) =>
      r.id === null
        ? { value: noneFilter, label: noCustomerLabel, count: r.count }
        : { value: r.id, label: r.name ?? r.id, count: r.count },
    );

  async function load(country: string | undefined): Promise<DeviceFacets> {
    const [countries, cities, versions, licences, customers] = await Promise.all([
      places(countryOf),
      places(cityOf, country === undefined ? undefined : sql`${countryOf} = ${country}`),
      appVersions(),
      // Every state is offered, also at 0.
      grouped(licenceState, sql`''`),
      holders(),
    ]);
    const perState = new Map(licences.map((r) => [r.key, r.count]));
    return {
      countries,
      cities,
      appVersions: versions,
      licences: licenceStates.map((state) => ({
        value: state,
        label: licenceStateLabels[state],
        count: perState.get(state) ?? 0,
      })),
      customers,
    };
  }

  return {
    facets({ country }: { country?: string }): Promise<DeviceFacets> {
      const key = country ?? '';
      const at = now().getTime();
      const hit = kept.get(key);
      if (hit && at - hit.at < keepMs) return hit.answer;
      if (kept.size >= keptLimit) kept.clear();
      const answer = load(country);
      kept.set(key, { at, answer });
      // A failed count is not kept: the next request asks again.
      answer.catch(() => kept.get(key)?.answer === answer && kept.delete(key));
      return answer;
    },
    invalidate: () => kept.clear(),
  };
}
