import { desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  appVersionFilterLabel,
  appVersionFilterValue,
  facetValueLimit,
  noneFilter,
  type DeviceFacets,
} from '@app/contract/device-filters';
import type { FacetValue } from '@app/contract/facets';
import { licenceStateLabels, licenceStates } from '@app/contract/licences';
import type { Db } from '#api/db/client.ts';
import { appVersionSortKey, devices } from '#api/db/schema/devices.ts';

/** How long a facet list is kept: places and versions change slowly, and counting them is a scan. */
const keepMs = 30_000;
/** Kept answers at most (one per country asked for, plus the whole fleet's). */
const keptLimit = 500;

/**
 * The values the device list's facets offer (countries, cities, app versions, licence states), each
 * with its count. A count groups the whole table, so an answer is kept for 30 s, and dropped when a
 * machine is added or moves to another place (a licence changes by the clock and by payments: its
 * counts may lag by those 30 s); the list's own count stays exact whatever this one says.
 */
export function createDeviceFacets({ db, now }: { db: Db; now: () => Date }) {
  const kept = new Map<string, { at: number; answer: Promise<DeviceFacets> }>();

  const grouped = async (
    key: SQL,
    label: SQL,
    where?: SQL,
  ): Promise<{ key: string; label: string; count: number }[]> =>
    db
      .select({
        key: sql<string>`${key}::text`,
        label: sql<string>`${label}`,
        count: sql<number>`count(*)::int`,
      })
      .from(devices)
      .where(where)
      .groupBy(key)
      .orderBy(desc(sql`count(*)`), key)
      .limit(facetValueLimit);

  const places = async (
    column: typeof devices.country | typeof devices.city,
    where?: SQL,
  ): Promise<FacetValue[]> =>
    (await grouped(sql`${column}`, sql`${column}`, where))
      .filter((r) => r.key !== '')
      .map((r) => ({ value: r.key, label: r.label, count: r.count }));

  /**
   * The app versions, counted per app and code (issue 35 item 2): a technician app and the device app
   * on one code are two values. A machine that never reported a code is "Never reported" whatever
   * else its row holds; one whose app sent no package has an option of its own.
   */
  const appVersions = async (): Promise<FacetValue[]> => {
    const code = appVersionSortKey(devices);
    const appPackage = sql<
      string | null
    >`case when ${devices.appVersionCode} is null then null else ${devices.appPackage} end`;
    const rows = await db
      .select({
        code: sql<number>`${code}`,
        appPackage,
        name: sql<string | null>`max(${devices.appVersionName})`,
        count: sql<number>`count(*)::int`,
      })
      .from(devices)
      .groupBy(code, appPackage)
      .orderBy(desc(sql`count(*)`), code, appPackage)
      .limit(facetValueLimit);
    return rows.map((r) =>
      r.code === -1
        ? { value: noneFilter, label: appVersionFilterLabel({ code: null }), count: r.count }
        : {
            value: appVersionFilterValue(r.code, r.appPackage),
            label: appVersionFilterLabel({ code: r.code, appPackage: r.appPackage }, r.name),
            count: r.count,
          },
    );
  };

  async function load(country: string | undefined): Promise<DeviceFacets> {
    const [countries, cities, versions, licences] = await Promise.all([
      places(devices.country),
      places(devices.city, country === undefined ? undefined : eq(devices.country, country)),
      appVersions(),
      // An index-only scan of devices_licence_state_id_idx; every state is offered, also at 0.
      grouped(sql`${devices.licenceState}`, sql`''`),
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
