import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Device, DeviceSortKey, SortDirection } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { appVersionSortKey, devices } from '#api/db/schema/devices.ts';
import { deviceJsonOf, type DeviceJson } from './device-rows.ts';
import { subscriptionsJsonOf } from './device-subscriptions.ts';

/**
 * The orders whose anchors are kept: every sort but Last Seen, which a calling fleet reorders every
 * second (device_order_versions has no number for it, migration 0044).
 */
const anchoredSorts: Partial<Record<DeviceSortKey, { column: AnyColumn | SQL; type: SQL; unique: boolean }>> =
  {
    createdAt: { column: devices.createdAt, type: sql`timestamptz`, unique: false },
    machineNumber: { column: devices.machineNumber, type: sql`text`, unique: true },
    serialNumber: { column: devices.serialNumber, type: sql`text`, unique: true },
    location: { column: devices.location, type: sql`text`, unique: false },
    city: { column: devices.city, type: sql`text`, unique: false },
    country: { column: devices.country, type: sql`text`, unique: false },
    status: { column: devices.status, type: sql`smallint`, unique: false },
    subscriptionStatus: { column: devices.subscriptionStatus, type: sql`smallint`, unique: false },
    appVersionCode: { column: appVersionSortKey(devices), type: sql`integer`, unique: false },
    licenceState: { column: devices.licenceState, type: sql`text`, unique: false },
  };

/** Kept anchors of one order: the key (as text) and id of every `every`-th machine, going up. */
type Anchors = { version: string; total: number; keys: (string | null)[]; ids: string[] };

type AnchorRow = {
  version: string | null;
  total: number | string | null;
  anchors: [string | null, string][];
};

/** An order's anchors, as kept. */
export type OrderAnchors = {
  /** The order's number the anchors were read with: a page read from them holds only if it still is. */
  version: string;
  /** The machines in the table when the anchors were read (exact while the number holds). */
  total: number;
  /** The ids of the machines at ascending positions [start, start + take), a subquery with `page_id`. */
  ids(start: number, take: number): SQL;
};

/**
 * Deep pages of the unfiltered list without walking the index up to them (decision 078). For an
 * order, the key and id of every `every`-th machine are read once (one pass over its index) and
 * kept with the order's number in device_order_versions; page N then starts at the anchor before it
 * and skips fewer than `every` index entries. The statement that reads the page also reads the
 * number: if any write moved a machine in that order since (an insert or delete moves every order),
 * the number differs, the page is thrown away and read the old way, and the anchors are read again
 * in the background. So an answer from the anchors is exactly the page OFFSET would give.
 */
export function createOrderAnchors({ db, every }: { db: Db; every: number }) {
  const kept = new Map<DeviceSortKey, Anchors>();
  const reading = new Map<DeviceSortKey, Promise<void>>();

  async function read(sort: DeviceSortKey) {
    const { column, unique } = anchoredSorts[sort]!;
    const order = unique ? sql`${column}` : sql`${column}, ${devices.id}`;
    const [row] = rowsOf<AnchorRow>(
      await db.execute(sql`
        select (select version::text from device_order_versions where sort_key = ${sort}) as version,
          (select n from table_row_counts where table_name = 'devices') as total,
          coalesce((select json_agg(json_build_array(k, id) order by rn) from (
            select ${column}::text as k, ${devices.id}::text as id, row_number() over (order by ${order}) - 1 as rn
            from ${devices}) ranked where rn % ${every} = 0), '[]'::json) as anchors`),
    );
    if (!row?.version || row.total === null) return;
    kept.set(sort, {
      version: row.version,
      total: Number(row.total),
      keys: row.anchors.map(([key]) => key),
      ids: row.anchors.map(([, id]) => id),
    });
  }

  /** Reads an order's anchors unless already reading them; a failure leaves none (the next page tries again). */
  function refresh(sort: DeviceSortKey): Promise<void> {
    let pending = reading.get(sort);
    if (!pending) {
      pending = read(sort)
        .catch(() => undefined)
        .finally(() => reading.delete(sort));
      reading.set(sort, pending);
    }
    return pending;
  }

  /** From the anchor at or before `start`, fewer than `every` index entries are skipped. */
  function idsOf(sort: DeviceSortKey, { keys, ids: anchorIds }: Anchors, start: number, take: number): SQL {
    const at = Math.min(Math.floor(start / every), anchorIds.length - 1);
    const key = keys[at];
    const id = anchorIds[at]!;
    const skip = start - at * every;
    const { column, type, unique } = anchoredSorts[sort]!;
    const ids = (where: SQL, order: SQL) =>
      sql`select ${devices.id} as page_id, ${column} as k from ${devices} where ${where} order by ${order} limit ${skip + take}`;
    // In the nulls, which come last going up, in id order.
    if (key === null)
      return sql`select page_id from (${ids(sql`${column} is null and ${devices.id} >= ${id}::uuid`, sql`${devices.id}`)}) a order by page_id offset ${skip}`;
    const from = unique
      ? sql`${column} >= ${key}::${type}`
      : sql`(${column}, ${devices.id}) >= (${key}::${type}, ${id}::uuid)`;
    const order = unique ? sql`${column}` : sql`${column}, ${devices.id}`;
    // A column with nulls: they follow its last value going up (only subscription status has them).
    if (sort === 'subscriptionStatus')
      return sql`select page_id from ((${ids(from, order)}) union all (${ids(sql`${column} is null`, sql`${devices.id}`)})) a
        order by k, page_id offset ${skip} limit ${take}`;
    return sql`select page_id from (${ids(from, order)}) a order by k${unique ? sql`` : sql`, page_id`} offset ${skip}`;
  }

  return {
    /** Whether this order can have anchors at all. */
    covers: (sort: DeviceSortKey) => anchoredSorts[sort] !== undefined,
    /**
     * The order's anchors, or undefined while it has none (they are then read in the background, and
     * this page is read the old way).
     */
    get(sort: DeviceSortKey): OrderAnchors | undefined {
      const entry = kept.get(sort);
      if (!entry) {
        void refresh(sort);
        return undefined;
      }
      return {
        version: entry.version,
        total: entry.total,
        ids: (start, take) => idsOf(sort, entry, start, take),
      };
    },
    /** The page read from the anchors found the order's number changed: read them again. */
    moved(sort: DeviceSortKey, version: string) {
      if (kept.get(sort)?.version === version) kept.delete(sort);
      void refresh(sort);
    },
    /** Reads an order's anchors now (tests, and a caller that would rather wait). */
    refresh,
  };
}
export type OrderAnchorKeeper = ReturnType<typeof createOrderAnchors>;

/**
 * A deep page of the unfiltered list read from its order's anchors, with each machine's
 * subscriptions, in one statement that also reads the order's number; undefined when the order has
 * no anchors yet or they no longer hold (the caller then reads the page the old way). `order` is the
 * list's order going up; `device` turns a row into the answer's device.
 */
export async function anchoredPage(
  db: Db,
  anchors: OrderAnchorKeeper,
  {
    sort,
    direction,
    offset,
    limit,
    order,
    device,
  }: {
    sort: DeviceSortKey;
    direction: SortDirection;
    offset: number;
    limit: number;
    order: SQL;
    device: (row: DeviceJson) => Device;
  },
): Promise<{ devices: Device[]; total: number } | undefined> {
  const kept = anchors.covers(sort) ? anchors.get(sort) : undefined;
  if (!kept || offset >= kept.total) return undefined;
  // Positions going up: a page going down is the same machines read up and reversed.
  const end = direction === 'asc' ? Math.min(kept.total, offset + limit) : kept.total - offset;
  const start = direction === 'asc' ? offset : Math.max(0, kept.total - offset - limit);
  const [found] = rowsOf<{ version: string | null; page: DeviceJson[] }>(
    await db.execute(sql`
      select (select version::text from device_order_versions where sort_key = ${sort}) as version,
        coalesce(json_agg(${deviceJsonOf(subscriptionsJsonOf(devices.serialNumber))} order by ${order}), '[]'::json) as page
      from ${devices} join (${kept.ids(start, end - start)}) page_ids on ${devices.id} = page_ids.page_id`),
  );
  if (found?.version !== kept.version) {
    anchors.moved(sort, kept.version);
    return undefined;
  }
  const page = found.page.map(device);
  return { devices: direction === 'asc' ? page : page.reverse(), total: kept.total };
}
