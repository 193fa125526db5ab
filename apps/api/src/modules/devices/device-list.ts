import { asc, desc, eq, inArray, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Device, DeviceList, DeviceSortKey, SortDirection } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { appVersionSortKey, devices, lastSeenSortKey } from '#api/db/schema/devices.ts';
import { tableRowCounts } from '#api/db/schema/table-row-counts.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';
import { facetTotal, filteredCount } from './device-counts.ts';
import { deviceFilterWhere, type DeviceFilters } from './device-filters.ts';
import { anchoredPage, createOrderAnchors, type OrderAnchorKeeper } from './device-order-anchors.ts';
import { deviceSearchExactCountLimit, rareMatches, sampledMatches, searchWords } from './device-search.ts';
import { subscriptionsJsonOf } from './device-subscriptions.ts';
import {
  deviceColumns,
  deviceFromJson,
  deviceJsonOf,
  type DeviceJson,
  type DeviceListRow,
} from './device-rows.ts';
import { createOnlineCounts } from './online-counts.ts';

const sortColumns: Record<DeviceSortKey, { column: AnyColumn | SQL; unique: boolean }> = {
  createdAt: { column: devices.createdAt, unique: false },
  machineNumber: { column: devices.machineNumber, unique: true },
  serialNumber: { column: devices.serialNumber, unique: true },
  location: { column: devices.location, unique: false },
  city: { column: devices.city, unique: false },
  country: { column: devices.country, unique: false },
  status: { column: devices.status, unique: false },
  subscriptionStatus: { column: devices.subscriptionStatus, unique: false },
  lastSeenAt: { column: lastSeenSortKey(devices), unique: false },
  appVersionCode: { column: appVersionSortKey(devices), unique: false },
  licenceState: { column: devices.licenceState, unique: false },
};

export type DeviceListParams = DeviceFilters & {
  page: number;
  limit: number;
  sort: DeviceSortKey;
  direction?: SortDirection;
};

/** Pages starting before this row are fetched together with the count; deeper ones after it. */
const nearPages = 1000;
/**
 * Device Management's list: a page in any sort order, with an optional search, its total, and each
 * device's subscriptions. `withSubscriptions` completes rows read the general way.
 */
export function createDeviceList({
  db,
  now,
  offlineMinutes,
  withSubscriptions,
  deepPages = { anchors: createOrderAnchors({ db, every: 1000 }), from: 20_000 },
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
  withSubscriptions: (rows: DeviceListRow[]) => Promise<Device[]>;
  /**
   * Deep pages of the unfiltered list read from the orders' anchors (an anchor every 1,000 machines),
   * for pages at least `from` machines from either end: nearer ones skip few enough index entries.
   */
  deepPages?: { anchors: OrderAnchorKeeper; from: number };
}) {
  const { anchors } = deepPages;
  const onlineCounts = createOnlineCounts({ db, offlineMinutes });
  const countWhere = async (where: SQL | undefined) =>
    (
      await db
        .select({ n: sql<number>`count(*)::int` })
        .from(devices)
        .where(where)
    )[0]!.n;
  /** The whole table's count, kept by triggers as rows are written (no count per request). */
  const devicesCount = db
    .select({ n: tableRowCounts.n })
    .from(tableRowCounts)
    .where(eq(tableRowCounts.tableName, 'devices'))
    .prepare('devices_count');
  const countAll = async () => {
    const [row] = await devicesCount.execute();
    return row ? Number(row.n) : countWhere(undefined);
  };

  /** The rows of these ids, in the order given. */
  const rowsByIds = async (ids: string[]): Promise<DeviceListRow[]> => {
    if (ids.length === 0) return [];
    const rows = await db.select(deviceColumns).from(devices).where(inArray(devices.id, ids));
    const at = new Map(ids.map((id, i) => [id, i]));
    return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
  };

  type Prepared<Row> = { execute(values: { skip: number; take: number }): Promise<Row[]> };
  const unsearchedPages = new Map<string, Prepared<DeviceListRow>>();
  type FirstPagesRow = { total: number | string | null; page: DeviceJson[] };
  const unsearchedFirstPages = new Map<string, Prepared<FirstPagesRow>>();

  return async function list(params: DeviceListParams): Promise<DeviceList> {
    const { page, limit, sort } = params;
    const direction = params.direction ?? (sort === 'createdAt' ? 'desc' : 'asc');
    const { column, unique } = sortColumns[sort];
    // A unique column orders on its own; any other gets id as the tie-breaker (the index's second column).
    const orderOf = (dir: SortDirection): SQL[] => {
      const order = dir === 'asc' ? asc : desc;
      return unique ? [order(column)] : [order(column), order(devices.id)];
    };
    const onlineAt = now();
    const onlineSince = new Date(onlineAt.getTime() - offlineMinutes * 60_000);
    const { searched, faceted, facetsOnly, where } = deviceFilterWhere(params, onlineSince, onlineAt);
    const offset = offsetOf(page, limit);
    // What a page's rows are tested with: the filters, with a common search term tested row by row
    // as the sort order's index is walked instead of through the trigram index (device-search.ts).
    let pageWhere = where;

    // Page ids first from the index alone, then only those rows: a deep page skips index entries,
    // not table rows.
    const pageIdsOf = (dir: SortDirection, skip: number | Placeholder, take: number | Placeholder) =>
      db
        .select({ pageId: sql<string>`${devices.id}`.as('page_id') })
        .from(devices)
        .where(pageWhere)
        .orderBy(...orderOf(dir))
        .limit(take)
        .offset(skip)
        .as('page_ids');
    const pageQuery = (dir: SortDirection, skip: number | Placeholder, take: number | Placeholder) => {
      const pageIds = pageIdsOf(dir, skip, take);
      return db
        .select(deviceColumns)
        .from(devices)
        .innerJoin(pageIds, eq(devices.id, pageIds.pageId))
        .orderBy(...orderOf(dir));
    };
    // Without a search a page's query has one shape per order: built once each, then prepared.
    const pageRows = async (dir: SortDirection, skip: number, take: number): Promise<DeviceListRow[]> => {
      if (pageWhere) return pageQuery(dir, skip, take);
      const name = `devices_page_${sort}_${dir}`;
      let prepared = unsearchedPages.get(name);
      if (!prepared) {
        prepared = pageQuery(dir, sql.placeholder('skip'), sql.placeholder('take')).prepare(name);
        unsearchedPages.set(name, prepared);
      }
      return prepared.execute({ skip, take });
    };
    const total = async (): Promise<{ total: number; estimated: boolean }> => {
      // Facets alone: summed from the combinations kept by triggers, exact at any size.
      if (facetsOnly) return { total: await facetTotal(db, params), estimated: false };
      // Facets with the online state or the licence's end: exactly up to the limit, estimated past it.
      if (faceted) return filteredCount(db, where!);
      // A filter by online state alone: its total is kept (decision 050), not counted.
      if (params.online) return { total: (await onlineCounts(onlineAt))[params.online], estimated: false };
      return { total: await countAll(), estimated: false };
    };
    const answer = (allDevices: Device[], counted: { total: number; estimated: boolean }): DeviceList => {
      // An estimate never reads below what this page has shown to exist.
      const count = counted.estimated ? Math.max(counted.total, offset + allDevices.length) : counted.total;
      return {
        allDevices,
        totalPages: pageCount(count, limit),
        total: count,
        totalIsEstimate: counted.estimated,
        page,
        limit,
      };
    };

    if (searched) {
      // Look before choosing (decision 078): a sample of the table says whether the term is rare.
      // Rare: one pass over the trigram index finds every match, counts them and gives the page,
      // asking the index for the term's rarest word when the sample says that word alone is rare.
      // Common: the total is the sample's estimate and the page walks the sort order's index.
      const words = searchWords(params.search!);
      const sampled = await sampledMatches(db, where!, await countAll(), words);
      const rare = (n: number) => n <= 2 * deviceSearchExactCountLimit;
      let counted = { total: Math.round(sampled.matches), estimated: true };
      if (rare(sampled.matches)) {
        const [word] =
          [...sampled.withWord].filter(([, n]) => rare(n)).sort(([, a], [, b]) => a - b)[0] ?? [];
        const dir = sql.raw(direction);
        const found = await rareMatches(db, {
          where:
            word === undefined || word === params.search!.toLowerCase()
              ? where!
              : deviceFilterWhere(params, onlineSince, onlineAt, { word }).where!,
          key: sql`${column}`,
          order: unique ? sql`k ${dir}` : sql`k ${dir}, id ${dir}`,
          skip: offset,
          take: limit,
        });
        if (found.count <= deviceSearchExactCountLimit)
          return answer(await withSubscriptions(await rowsByIds(found.ids)), {
            total: found.count,
            estimated: false,
          });
        counted = { total: Math.max(counted.total, found.count), estimated: true };
      }
      pageWhere = deviceFilterWhere(params, onlineSince, onlineAt, 'scan').where;
      return answer(await withSubscriptions(await pageRows(direction, offset, limit)), counted);
    }

    // A page deep from both ends (a page near the far end is read from there, below).
    if (!where && offset >= deepPages.from && offset <= (await countAll()) - deepPages.from) {
      const fromAnchors = await anchoredPage(db, anchors, {
        sort,
        direction,
        offset,
        limit,
        order: sql.join(orderOf('asc'), sql`, `),
        device: (r) => deviceFromJson(r, onlineAt.getTime(), onlineSince.getTime()),
      });
      if (fromAnchors) return answer(fromAnchors.devices, { total: fromAnchors.total, estimated: false });
    }
    if (!where && offset < nearPages) {
      // The console's usual request: the page, its count and its subscriptions in one statement
      // (one round trip instead of three; on the embedded database each costs a millisecond).
      const name = `devices_first_pages_${sort}_${direction}`;
      let prepared = unsearchedFirstPages.get(name);
      if (!prepared) {
        const pageIds = pageIdsOf(direction, sql.placeholder('skip'), sql.placeholder('take'));
        prepared = db
          .select({
            total: sql<
              number | string | null
            >`(select ${tableRowCounts.n} from ${tableRowCounts} where ${tableRowCounts.tableName} = 'devices')`,
            page: sql<DeviceJson[]>`coalesce(json_agg(${deviceJsonOf(
              subscriptionsJsonOf(devices.serialNumber),
            )} order by ${sql.join(orderOf(direction), sql`, `)}), '[]'::json)`,
          })
          .from(devices)
          .innerJoin(pageIds, eq(devices.id, pageIds.pageId))
          .prepare(name);
        unsearchedFirstPages.set(name, prepared);
      }
      const [found] = await prepared.execute({ skip: offset, take: limit });
      const count = found?.total != null ? Number(found.total) : await countAll();
      return {
        allDevices: (found?.page ?? []).map((r) =>
          deviceFromJson(r, onlineAt.getTime(), onlineSince.getTime()),
        ),
        totalPages: pageCount(count, limit),
        total: count,
        totalIsEstimate: false,
        page,
        limit,
      };
    }

    let rows: DeviceListRow[];
    let counted: { total: number; estimated: boolean };
    if (offset < nearPages) {
      [rows, counted] = await Promise.all([pageRows(direction, offset, limit), total()]);
    } else {
      counted = await total();
      const count = counted.total;
      // A page past the middle is read from the other end, so no page skips more than half the list
      // (only when the count is exact: an estimate could point past the real end).
      if (offset >= count && !counted.estimated) rows = [];
      else if (offset <= count / 2 || counted.estimated) rows = await pageRows(direction, offset, limit);
      else {
        const take = Math.min(limit, count - offset);
        rows = (await pageRows(direction === 'asc' ? 'desc' : 'asc', count - offset - take, take)).reverse();
      }
    }
    return answer(await withSubscriptions(rows), counted);
  };
}
