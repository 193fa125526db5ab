import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { devices } from '#api/db/schema/devices.ts';
import { deviceForm as form, deviceInject, enrolDevice, flushCheckIns } from '#api/test/device-fixtures.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { deviceRequests } from './device-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { add, list, get } = deviceRequests(() => ({ t, token }));

describe('GET /api/v1/admin/machine', () => {
  let t2: TestApp;
  let token2: string;
  const rows = [
    {
      machineNumber: 'M-003',
      serialNumber: 'SN-C',
      location: 'Clinic 50% Off',
      city: 'Berlin',
      country: 'Germany',
      status: 2,
      subscriptionStatus: 1,
    },
    {
      machineNumber: 'M-001',
      serialNumber: 'SN-A',
      location: 'Harbour Clinic',
      city: 'Hamburg',
      country: 'Germany',
      status: 1,
      subscriptionStatus: 2,
    },
    {
      machineNumber: 'M-002',
      serialNumber: 'SN-B',
      location: 'Old_Town',
      city: 'Paris',
      country: 'France',
      status: 2,
      subscriptionStatus: null,
    },
    {
      machineNumber: 'X-9',
      serialNumber: 'ZZ-1',
      location: 'Harbour Clinic',
      city: 'Lyon',
      country: 'France',
      status: 1,
      subscriptionStatus: 4,
    },
  ];
  beforeAll(async () => {
    t2 = await createTestApp();
    token2 = await t2.login();
    const base = Date.UTC(2025, 0, 1);
    await t2.database.db.insert(devices).values(
      rows.map((r, i) => ({
        ...r,
        latitude: 1,
        longitude: 2,
        address: 'Somewhere 1',
        createdAt: new Date(base + i * 60_000),
        updatedAt: new Date(base),
      })),
    );
  });
  afterAll(() => t2.close());
  const list2 = (query: Record<string, string | number> = {}) =>
    t2.injectAs(token2, {
      method: 'GET',
      url: '/api/v1/admin/machine',
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
  const numbers = async (query: Record<string, string | number>) => {
    const res = await list2(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.allDevices.map((d: { machineNumber: string }) => d.machineNumber);
  };

  it('lists newest first with allDevices, totalPages, total, page and limit', async () => {
    const res = await list2();
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ totalPages: 1, total: 4, page: 1, limit: 10 });
    expect(data.allDevices.map((d: { machineNumber: string }) => d.machineNumber)).toEqual([
      'X-9',
      'M-002',
      'M-001',
      'M-003',
    ]);
  });

  it('pages through the list with page and limit', async () => {
    const res = await list2({ page: 2, limit: 3 });
    expect(res.json().data).toMatchObject({ totalPages: 2, total: 4, page: 2, limit: 3 });
    expect(await numbers({ page: 2, limit: 3 })).toEqual(['M-003']);
    expect(await numbers({ page: 3, limit: 3 })).toEqual([]);
  });

  it('searches machine number, serial number, location, city and country, case-insensitively by substring', async () => {
    expect(await numbers({ search: 'm-00' })).toEqual(['M-002', 'M-001', 'M-003']);
    expect(await numbers({ search: 'zz-' })).toEqual(['X-9']);
    expect(await numbers({ search: 'HARBOUR' })).toEqual(['X-9', 'M-001']);
    expect(await numbers({ search: 'ambu' })).toEqual(['M-001']);
    expect(await numbers({ search: 'franc' })).toEqual(['X-9', 'M-002']);
    expect(await numbers({ search: 'nothing like this' })).toEqual([]);
    const empty = (await list2({ search: 'nothing like this' })).json().data;
    expect(empty).toMatchObject({ total: 0, totalPages: 1 });
  });

  it('takes % and _ in a search literally', async () => {
    expect(await numbers({ search: '50%' })).toEqual(['M-003']);
    expect(await numbers({ search: 'd_t' })).toEqual(['M-002']);
    expect(await numbers({ search: '%' })).toEqual(['M-003']);
  });

  it('sorts by each column both ways, ties broken the same way every time', async () => {
    expect(await numbers({ sort: 'machineNumber' })).toEqual(['M-001', 'M-002', 'M-003', 'X-9']);
    expect(await numbers({ sort: 'machineNumber', direction: 'desc' })).toEqual([
      'X-9',
      'M-003',
      'M-002',
      'M-001',
    ]);
    expect(await numbers({ sort: 'serialNumber', direction: 'asc' })).toEqual([
      'M-001',
      'M-002',
      'M-003',
      'X-9',
    ]);
    expect(await numbers({ sort: 'createdAt', direction: 'asc' })).toEqual([
      'M-003',
      'M-001',
      'M-002',
      'X-9',
    ]);
    expect(await numbers({ sort: 'city' })).toEqual(['M-003', 'M-001', 'X-9', 'M-002']);
    expect(
      await numbers({ sort: 'country', direction: 'desc' }).then((n: string[]) => n.slice(0, 2).sort()),
    ).toEqual(['M-001', 'M-003']);
    for (const sort of ['location', 'status', 'country', 'subscriptionStatus']) {
      for (const direction of ['asc', 'desc']) {
        const all = await numbers({ sort, direction });
        // Paging one by one gives the same order as one page: the tie-breaker is stable.
        const oneByOne = [];
        for (let page = 1; page <= 4; page++)
          oneByOne.push(...(await numbers({ sort, direction, page, limit: 1 })));
        expect(oneByOne, `${sort} ${direction}`).toEqual(all);
      }
    }
    const byStatus = (await list2({ sort: 'status' }))
      .json()
      .data.allDevices.map((d: { status: number }) => d.status);
    expect(byStatus).toEqual([1, 1, 2, 2]);
    const bySubscription = (await list2({ sort: 'subscriptionStatus', direction: 'desc' }))
      .json()
      .data.allDevices.map((d: { machineNumber: string }) => d.machineNumber);
    expect(bySubscription).toEqual(['M-002', 'X-9', 'M-001', 'M-003']);
  });

  it('names a bad page, limit, sort, direction or search in a 400', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ page: 0 }, 'page must be at least 1'],
      [{ page: 'two' }, 'page must be a number'],
      [{ limit: 101 }, 'limit must be at most 100'],
      [{ limit: 1.5 }, 'limit must be a whole number'],
      [
        { sort: 'password' },
        'sort must be one of createdAt, machineNumber, serialNumber, location, city, country, status, subscriptionStatus, lastSeenAt, appVersionCode, licenceState',
      ],
      [{ direction: 'up' }, 'direction must be asc or desc'],
      [{ search: 'x'.repeat(101) }, 'search must be at most 100 characters'],
    ];
    for (const [query, msg] of cases) {
      const res = await list2(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
  });
});
describe('check-ins in the list', () => {
  it('shows last seen and app version after heartbeats, sorts by them, and goes offline after the quiet time', async () => {
    // Found by a location of their own: a search term must not appear in the logs (the secret scan
    // treats it as personal), and machine numbers do appear there.
    const place = `Ward ${randomBytes(3).toString('hex')}`;
    const prefix = `HB-${randomBytes(3).toString('hex')}`;
    const enrolled = [];
    for (const n of [1, 2, 3]) {
      const res = await add(form({ machineNumber: `${prefix}-${n}`, location: place }));
      enrolled.push(await enrolDevice(t, res.json().data._id));
    }
    // Seen in the order 2, 3, 1 (a second apart); versions 30, 10, 20.
    const versions = [30, 10, 20];
    for (const i of [1, 2, 0]) {
      t.clock.advance(1000);
      const res = await deviceInject(t, enrolled[i]!.credential, {
        method: 'POST',
        url: '/api/v1/app/heartbeat',
        payload: { versionCode: versions[i], versionName: `v${versions[i]}` },
      });
      expect(res.statusCode).toBe(200);
    }
    await flushCheckIns(t);
    const numbers = async (sort: string, direction: string) =>
      (
        (await list({ search: place, sort, direction })).json().data.allDevices as Array<{
          machineNumber: string;
        }>
      ).map((d) => d.machineNumber);
    expect(await numbers('lastSeenAt', 'asc')).toEqual([`${prefix}-2`, `${prefix}-3`, `${prefix}-1`]);
    expect(await numbers('lastSeenAt', 'desc')).toEqual([`${prefix}-1`, `${prefix}-3`, `${prefix}-2`]);
    expect(await numbers('appVersionCode', 'asc')).toEqual([`${prefix}-2`, `${prefix}-3`, `${prefix}-1`]);
    const first = (await get(enrolled[0]!.deviceId)).json().data;
    expect(first).toMatchObject({
      lastSeenAt: t.clock.now.toISOString(),
      online: true,
      appVersionCode: 30,
      appVersionName: 'v30',
    });

    t.clock.advance(15 * 60_000 + 1000);
    const later = (await list({ search: place })).json().data.allDevices as Array<{ online: boolean }>;
    expect(later).toHaveLength(3);
    expect(later.every((d) => !d.online)).toBe(true);
    expect((await get(enrolled[0]!.deviceId)).json().data.lastSeenAt).toBe(first.lastSeenAt);
  });

  it('answers the unsearched first pages (read as one JSON value) exactly as the device itself reads', async () => {
    const res = await add(form({ machineNumber: `JS-${randomBytes(3).toString('hex')}` }));
    const { deviceId, credential } = await enrolDevice(t, res.json().data._id);
    t.clock.advance(1000);
    await deviceInject(t, credential, {
      method: 'POST',
      url: '/api/v1/app/heartbeat',
      payload: { versionCode: 7, versionName: 'v7' },
    });
    await flushCheckIns(t);
    const newest = (await list({ page: '1', limit: '1' })).json().data.allDevices[0];
    const device = (await get(deviceId)).json().data;
    // Timestamps the database keeps to the microsecond come out cut to the millisecond both ways.
    expect(newest).toEqual(device);
    expect(newest).toMatchObject({ _id: deviceId, online: true, appVersionCode: 7 });
    expect(newest.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
