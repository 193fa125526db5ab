import { asc, desc, eq, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Device, DeviceList, DeviceSortKey, SortDirection } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { appVersionSortKey, devices, lastSeenSortKey } from '#api/db/schema/devices.ts';
import { tableRowCounts } from '#api/db/schema/table-row-counts.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';
import { deviceFilterWhere, type DeviceFilters } from './device-filters.ts';
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
 * A search or facet is counted exactly up to this many matches. Counting rechecks every match in
 * the table (a trigram index narrows, it does not decide; a facet's index holds a third of the
 * table), so a term or value matching a third of 100,000 devices would cost more than the whole
 * page; past this the planner's estimate stands in (close for a facet: its column has statistics).
 */
export const deviceSearchExactCountLimit = 2000;

/**
 * Device Management's list: a page in any sort order, with an optional search, its total, and each
 * device's subscriptions. `withSubscriptions` completes rows read the general way.
 */
export function createDeviceList({
  db,
  now,
  offlineMinutes,
  withSubscriptions,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
  withSubscriptions: (rows: DeviceListRow[]) => Promise<Device[]>;
}) {
  const onlineCounts = createOnlineCounts({ db, offlineMinutes });
  const countWhere = async (where: SQL | undefined) =>
    (
      await db
        .select({ n: sql<number>`count(*)::int` })
        .from(devices)
        .where(where)
    )[0]!.n;
  /** The planner's row estimate for a filter: instant, and close enough for trigram searches. */
  const estimateWhere = async (where: SQL | undefined) => {
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
  };
  /** Exact up to the limit; past it (or when the estimate is far past it) the estimate. */
  const countFiltered = async (where: SQL): Promise<{ total: number; estimated: boolean }> => {
    const guess = await estimateWhere(where);
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
  };
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
    const { searched, faceted, where } = deviceFilterWhere(params, onlineSince, onlineAt);
    const offset = offsetOf(page, limit);

    // Page ids first from the index alone, then only those rows: a deep page skips index entries,
    // not table rows.
    const pageIdsOf = (dir: SortDirection, skip: number | Placeholder, take: number | Placeholder) =>
      db
        .select({ pageId: sql<string>`${devices.id}`.as('page_id') })
        .from(devices)
        .where(where)
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
      if (where) return pageQuery(dir, skip, take);
      const name = `devices_page_${sort}_${dir}`;
      let prepared = unsearchedPages.get(name);
      if (!prepared) {
        prepared = pageQuery(dir, sql.placeholder('skip'), sql.placeholder('take')).prepare(name);
        unsearchedPages.set(name, prepared);
      }
      return prepared.execute({ skip, take });
    };
    const total = async (): Promise<{ total: number; estimated: boolean }> => {
      // A broad facet (83,000 active machines) would be a long count on every page: facets are
      // counted as searches are, exactly up to the limit and estimated past it.
      if (searched || faceted) return countFiltered(where!);
      // A filter by online state alone: its total is kept (decision 050), not counted.
      if (params.online) return { total: (await onlineCounts(onlineAt))[params.online], estimated: false };
      return { total: await countAll(), estimated: false };
    };

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
      // A page past the middle is read from the other end, so no page skips more than half the list
      // (only when the count is exact: an estimate could point past the real end).
      counted = await total();
      const count = counted.total;
      if (offset >= count && !counted.estimated) rows = [];
      else if (offset <= count / 2 || counted.estimated) rows = await pageRows(direction, offset, limit);
      else {
        const take = Math.min(limit, count - offset);
        rows = (await pageRows(direction === 'asc' ? 'desc' : 'asc', count - offset - take, take)).reverse();
      }
    }
    // An estimate never reads below what this page has shown to exist.
    const count = counted.estimated ? Math.max(counted.total, offset + rows.length) : counted.total;
    return {
      allDevices: await withSubscriptions(rows),
      totalPages: pageCount(count, limit),
      total: count,
      totalIsEstimate: counted.estimated,
      page,
      limit,
    };
  };
}
