import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { count, sql } from 'drizzle-orm';
import type { Device, DeviceSortKey, SortDirection } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';
import { freshDatabase } from '#api/test/test-app.ts';
import { facetTotal } from './device-counts.ts';
import { deviceFilterWhere, type DeviceFilters } from './device-filters.ts';
import { createDeviceList, type DeviceListParams } from './device-list.ts';
import { createOrderAnchors } from './device-order-anchors.ts';

/*
 * What the device list does only at scale (decision 078), made to happen on a few hundred machines:
 * deep pages from kept anchors, facet totals from the kept combinations, and a search that looks
 * at a sample before choosing. Each is held to the plain way of reading the same list.
 */

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({
    database: { db },
    drop,
  } = await freshDatabase());
});
afterAll(() => drop());

const ids = async (rows: Promise<Device[]>) => (await rows).map((d) => d._id);
const listOf = (deepPages?: Parameters<typeof createDeviceList>[0]['deepPages']) =>
  createDeviceList({
    db,
    now: () => new Date(Date.UTC(2026, 0, 1)),
    offlineMinutes: 15,
    // Only the ids are compared: both ways read the rows the same way once they have them.
    withSubscriptions: async (rows) => rows.map((r) => ({ _id: r.id }) as Device),
    ...(deepPages ? { deepPages } : {}),
  });

/** `n` machines from `from` on with many ties, nulls, both statuses, several places and versions. */
const addMachines = (from: number, n: number, prefix = 'A') =>
  db.execute(sql`
    insert into devices (machine_number, serial_number, location, latitude, longitude, city, country,
      address, status, subscription_status, created_at, updated_at, app_version_code, app_package,
      app_version_name, licence_state)
    select ${prefix} || '-' || lpad(g::text, 5, '0'), ${prefix} || 'S-' || g, 'Site ' || (g % 4), 1, 2,
      (array['Graz', 'Linz', 'Wels'])[1 + g % 3], (array['Austria', 'Italy'])[1 + g % 2], 'Ring 1',
      1 + g % 2, case when g % 5 = 0 then null else 1 + g % 4 end,
      timestamptz '2025-01-01' + (g / 3) * interval '1 hour', timestamptz '2025-01-01',
      case when g % 7 = 0 then null else 40 + g % 3 end,
      case when g % 7 = 0 then null when g % 11 = 0 then 'com.other' else 'com.device' end,
      case when g % 7 = 0 then null else '1.' || (g % 3) end,
      (array['active', 'grace', 'lapsed', 'exempt', 'unlicensed'])[1 + g % 5]
    from generate_series(${from}::int, ${from + n - 1}::int) g`);

describe('deep pages from the anchors of an order', () => {
  const count = 131;
  const sorts: DeviceSortKey[] = [
    'createdAt',
    'machineNumber',
    'serialNumber',
    'location',
    'city',
    'country',
    'status',
    'subscriptionStatus',
    'appVersionCode',
    'licenceState',
  ];
  let plain: ReturnType<typeof listOf>;
  let anchored: ReturnType<typeof listOf>;
  let keeper: ReturnType<typeof createOrderAnchors>;
  beforeAll(async () => {
    await db.execute(sql`delete from devices`);
    await addMachines(1, count);
    plain = listOf({ anchors: createOrderAnchors({ db, every: 7 }), from: Number.POSITIVE_INFINITY });
    keeper = createOrderAnchors({ db, every: 7 });
    anchored = listOf({ anchors: keeper, from: 10 });
  });

  /** Every page of every order both ways, the anchored list against the plain one. */
  const compareAll = async (limit: number, orders = sorts) => {
    for (const sort of orders)
      for (const direction of ['asc', 'desc'] as SortDirection[])
        for (let page = 1; page <= Math.ceil(count / limit) + 1; page++) {
          const params: DeviceListParams = { page, limit, sort, direction };
          const [a, b] = await Promise.all([anchored(params), plain(params)]);
          expect(
            a.allDevices.map((d) => d._id),
            `${sort} ${direction} page ${page}`,
          ).toEqual(b.allDevices.map((d) => d._id));
          expect(a.total).toBe(b.total);
        }
  };

  it('gives every page exactly as the plain list does, in every order both ways', async () => {
    for (const sort of sorts) await keeper.refresh(sort);
    const moved = vi.spyOn(keeper, 'moved');
    const got = vi.spyOn(keeper, 'get');
    await compareAll(10);
    // Pages that do not start at a multiple of the anchors' spacing, the nulls' order among them.
    await compareAll(25, ['subscriptionStatus', 'location']);
    // The anchors were used, and held: nothing moved.
    expect(got.mock.results.some((r) => r.value !== undefined)).toBe(true);
    expect(moved).not.toHaveBeenCalled();
    moved.mockRestore();
    got.mockRestore();
  });

  it('notices every write that moves an order, answers the plain way, and reads the anchors again', async () => {
    const writes = [
      sql`update devices set location = 'Site 9' where machine_number = 'A-00100'`,
      sql`update devices set subscription_status = null where machine_number = 'A-00101'`,
      sql`update devices set subscription_status = 3 where machine_number = 'A-00105'`,
      sql`update devices set app_version_code = 99 where machine_number = 'A-00102'`,
      sql`update devices set licence_state = 'lapsed' where machine_number = 'A-00103'`,
      sql`update devices set status = 3 - status where machine_number = 'A-00104'`,
      sql`update devices set created_at = timestamptz '2024-01-01' where machine_number = 'A-00106'`,
      sql`delete from devices where machine_number = 'A-00107'`,
    ];
    for (const write of writes) {
      for (const sort of sorts) await keeper.refresh(sort);
      await db.execute(write);
      const moved = vi.spyOn(keeper, 'moved');
      // A page deep enough for the anchors, in every order: still the plain list's.
      for (const sort of sorts) {
        const params: DeviceListParams = { page: 9, limit: 10, sort, direction: 'asc' };
        expect(await ids(anchored(params).then((r) => r.allDevices)), sort).toEqual(
          await ids(plain(params).then((r) => r.allDevices)),
        );
      }
      expect(moved).toHaveBeenCalled();
      moved.mockRestore();
    }
    // An added machine moves every order.
    for (const sort of sorts) await keeper.refresh(sort);
    await addMachines(900, 1, 'B');
    const moved = vi.spyOn(keeper, 'moved');
    for (const sort of sorts) {
      const params: DeviceListParams = { page: 12, limit: 10, sort, direction: 'desc' };
      expect(await ids(anchored(params).then((r) => r.allDevices)), sort).toEqual(
        await ids(plain(params).then((r) => r.allDevices)),
      );
    }
    expect(moved).toHaveBeenCalledTimes(sorts.length);
    moved.mockRestore();
    // A check-in that moves no order (last seen, the same version) keeps the anchors.
    for (const sort of sorts) await keeper.refresh(sort);
    await db.execute(
      sql`update devices set last_seen_at = now(), app_version_code = app_version_code where status = 2`,
    );
    const kept = vi.spyOn(keeper, 'moved');
    expect(
      (await anchored({ page: 9, limit: 10, sort: 'location', direction: 'asc' })).allDevices,
    ).toHaveLength(10);
    expect(kept).not.toHaveBeenCalled();
    kept.mockRestore();
  });
});

describe('facet totals from the kept combinations', () => {
  const countsMatchTable = async () => {
    const rows = rowsOf<{ off: number }>(
      await db.execute(sql`
        select count(*)::int as off from (
          (select key, n from device_facet_counts
           except select device_facet_key(country, city, status, subscription_status, app_version_code,
             app_package, app_version_name, licence_state), count(*) from devices group by 1)
          union all
          (select device_facet_key(country, city, status, subscription_status, app_version_code,
             app_package, app_version_name, licence_state), count(*) from devices group by 1
           except select key, n from device_facet_counts)) x`),
    );
    expect(rows[0]!.off).toBe(0);
    const zero = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from device_facet_counts where n <= 0`),
    );
    expect(zero[0]!.n).toBe(0);
  };

  it('follows inserts, updates, deletes and truncates of the machines', async () => {
    await db.execute(sql`delete from devices`);
    await countsMatchTable();
    await addMachines(1, 120);
    await countsMatchTable();
    await db.execute(sql`update devices set city = 'Graz', country = 'Austria' where city = 'Wels'`);
    await db.execute(sql`update devices set app_version_code = null, app_package = null where status = 1`);
    await db.execute(sql`update devices set app_package = '' where machine_number = 'A-00002'`);
    await db.execute(
      sql`update devices set licence_state = 'grace', subscription_status = null where city = 'Linz'`,
    );
    await countsMatchTable();
    await db.execute(sql`delete from devices where status = 2`);
    await countsMatchTable();
    await db.execute(sql`truncate devices cascade`);
    await countsMatchTable();
  });

  it('counts every facet, alone and together, exactly as the table does', async () => {
    await db.execute(sql`delete from devices`);
    await addMachines(1, 211);
    const list = listOf();
    const filters: DeviceFilters[] = [
      { status: '1' },
      { subscriptionStatus: 'none' },
      { subscriptionStatus: '3' },
      { country: 'Italy' },
      { city: 'Wels', status: '2' },
      { appVersion: 'none' },
      { appVersion: '41' },
      { appVersion: 'com.other:40' },
      { appVersion: ':42' },
      { licence: 'lapsed', country: 'Austria' },
      { city: 'Nowhere' },
    ];
    for (const f of filters) {
      const answer = await list({ page: 1, limit: 5, sort: 'createdAt', ...f });
      // The plain count: the machines the list's own condition matches.
      const [plainCount] = await db
        .select({ n: count() })
        .from(devices)
        .where(deviceFilterWhere(f, new Date(), new Date()).where);
      const all = { total: plainCount!.n };
      expect(answer, JSON.stringify(f)).toMatchObject({ total: all.total, totalIsEstimate: false });
      expect(await facetTotal(db, f)).toBe(all.total);
    }
  });
});

describe('a search that looks before it chooses', () => {
  beforeAll(async () => {
    await db.execute(sql`delete from devices`);
    // 4,500 machines in Graz (common); 30 in the Rare Annex, and more that share one of its words.
    await db.execute(sql`
      insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address, created_at)
      select 'S-' || lpad(g::text, 5, '0'), 'SS-' || g,
        case when g % 150 = 0 then 'Rare Annex' when g % 100 = 1 then 'Annex Hall'
          when g % 90 = 2 then 'Rare Wing' else 'Main' end,
        1, 2, 'Graz', 'Austria', 'Ring 1', timestamptz '2025-01-01' + (g / 2) * interval '1 minute'
      from generate_series(1, 4500) g`);
  });

  it('counts a rare term exactly and pages through it in the list order', async () => {
    const list = listOf();
    // Each word alone names more machines than the term: the index is asked for one, the term decides.
    const first = await list({ page: 1, limit: 10, sort: 'machineNumber', search: 'rare annex' });
    expect(first).toMatchObject({ total: 30, totalIsEstimate: false, totalPages: 3 });
    expect(await list({ page: 1, limit: 10, sort: 'machineNumber', search: 'e annex' })).toMatchObject({
      total: 30,
    });
    const last = await list({ page: 3, limit: 10, sort: 'createdAt', direction: 'desc', search: 'RARE A' });
    expect(last.allDevices).toHaveLength(10);
    const expected = rowsOf<{ id: string }>(
      await db.execute(
        sql`select id from devices where location = 'Rare Annex' order by created_at desc, id desc offset 20`,
      ),
    ).map((r) => r.id);
    expect(last.allDevices.map((d) => d._id)).toEqual(expected);
  });

  it('estimates a common term, and still gives its pages in the list order', async () => {
    const list = listOf();
    const answer = await list({ page: 7, limit: 25, sort: 'location', direction: 'desc', search: 'graz' });
    expect(answer.totalIsEstimate).toBe(true);
    // Every machine of the sample matches: the estimate is the whole fleet.
    expect(answer.total).toBe(4500);
    const expected = rowsOf<{ id: string }>(
      await db.execute(
        sql`select id from devices where search_text like '%graz%' order by location desc, id desc offset 150 limit 25`,
      ),
    ).map((r) => r.id);
    expect(answer.allDevices.map((d) => d._id)).toEqual(expected);
  });
});
