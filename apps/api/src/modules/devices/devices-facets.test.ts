import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { devices } from '#api/db/schema/devices.ts';
import { deviceForm } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
const base = Date.UTC(2025, 0, 1);

// Seven machines: two countries, four cities, both statuses, every subscription state, three app
// versions and one never reported, online and offline and never seen. Code 42 runs in two apps (the
// device app and the technician app) and code 40 in an older app that did not name its package.
const deviceApp = 'com.treatment.device';
const technicianApp = 'com.treatment.technician';
const rows = [
  {
    machineNumber: 'F-1',
    country: 'Germany',
    city: 'Berlin',
    status: 2,
    subscriptionStatus: 2,
    app: 42,
    appPackage: deviceApp,
    seen: 'now',
  },
  {
    machineNumber: 'F-2',
    country: 'Germany',
    city: 'Berlin',
    status: 1,
    subscriptionStatus: 3,
    app: 42,
    appPackage: technicianApp,
    seen: 'old',
  },
  {
    machineNumber: 'F-3',
    country: 'Germany',
    city: 'Hamburg',
    status: 2,
    subscriptionStatus: null,
    app: 41,
    appPackage: deviceApp,
    seen: 'now',
  },
  {
    machineNumber: 'F-4',
    country: 'France',
    city: 'Paris',
    status: 2,
    subscriptionStatus: 1,
    app: null,
    appPackage: null,
    seen: null,
  },
  {
    machineNumber: 'F-5',
    country: 'France',
    city: 'Paris',
    status: 1,
    subscriptionStatus: 4,
    app: 40,
    appPackage: null,
    seen: 'old',
  },
  {
    machineNumber: 'F-6',
    country: 'France',
    city: 'Lyon',
    status: 2,
    subscriptionStatus: 2,
    app: 42,
    appPackage: deviceApp,
    seen: 'now',
  },
  {
    machineNumber: 'F-7',
    country: 'Germany',
    city: 'Berlin',
    status: 2,
    subscriptionStatus: 2,
    app: null,
    appPackage: null,
    seen: null,
  },
] as const;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  const now = t.clock.now.getTime();
  await t.database.db.insert(devices).values(
    rows.map((r, i) => ({
      machineNumber: r.machineNumber,
      serialNumber: `SN-${r.machineNumber}`,
      location: `Clinic ${i}`,
      city: r.city,
      country: r.country,
      status: r.status,
      subscriptionStatus: r.subscriptionStatus,
      appVersionCode: r.app,
      appVersionName: r.app === null ? null : `4.${r.app - 40}.0`,
      appPackage: r.appPackage,
      lastSeenAt: r.seen === null ? null : new Date(r.seen === 'now' ? now - 60_000 : now - 86_400_000),
      latitude: 50 + i,
      longitude: 10 + i,
      address: 'Somewhere 1',
      createdAt: new Date(base + i * 60_000),
      updatedAt: new Date(base),
    })),
  );
});
afterAll(() => t.close());

const get = (url: string, query: Record<string, string> = {}) =>
  t.injectAs(token, { method: 'GET', url, query });
async function listed(query: Record<string, string>) {
  const res = await get(apiPaths.machines, { sort: 'machineNumber', ...query });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  return {
    numbers: data.allDevices.map((d: { machineNumber: string }) => d.machineNumber),
    total: data.total,
  };
}

describe('the device list facets', () => {
  it('filters by status, subscription status, country, city and app version, each with an exact total', async () => {
    expect(await listed({ status: '1' })).toEqual({ numbers: ['F-2', 'F-5'], total: 2 });
    expect(await listed({ status: '2' })).toEqual({ numbers: ['F-1', 'F-3', 'F-4', 'F-6', 'F-7'], total: 5 });
    expect(await listed({ subscriptionStatus: '2' })).toEqual({ numbers: ['F-1', 'F-6', 'F-7'], total: 3 });
    expect(await listed({ subscriptionStatus: 'none' })).toEqual({ numbers: ['F-3'], total: 1 });
    expect(await listed({ country: 'France' })).toEqual({ numbers: ['F-4', 'F-5', 'F-6'], total: 3 });
    expect(await listed({ city: 'Berlin' })).toEqual({ numbers: ['F-1', 'F-2', 'F-7'], total: 3 });
    expect(await listed({ appVersion: '42' })).toEqual({ numbers: ['F-1', 'F-2', 'F-6'], total: 3 });
    expect(await listed({ appVersion: 'none' })).toEqual({ numbers: ['F-4', 'F-7'], total: 2 });
  });

  it('filters by app and version code: each app on a shared code alone, a bare code (older links) in every app', async () => {
    expect(await listed({ appVersion: `${deviceApp}:42` })).toEqual({ numbers: ['F-1', 'F-6'], total: 2 });
    expect(await listed({ appVersion: `${technicianApp}:42` })).toEqual({ numbers: ['F-2'], total: 1 });
    expect(await listed({ appVersion: '42' })).toEqual({ numbers: ['F-1', 'F-2', 'F-6'], total: 3 });
    // An app that reported its code without its package, and a package that never ran that code.
    expect(await listed({ appVersion: ':40' })).toEqual({ numbers: ['F-5'], total: 1 });
    expect(await listed({ appVersion: `${deviceApp}:40` })).toEqual({ numbers: [], total: 0 });
    // The longest package a heartbeat may name, with the largest code it may send.
    expect(await listed({ appVersion: `${'a'.repeat(120)}:2147483647` })).toEqual({ numbers: [], total: 0 });
    expect(await listed({ appVersion: `${deviceApp}:41`, country: 'Germany' })).toEqual({
      numbers: ['F-3'],
      total: 1,
    });
    const res = await get(apiPaths.machines, { appVersion: `${technicianApp}:42` });
    expect(res.json().data.allDevices[0]).toMatchObject({
      appPackage: technicianApp,
      appVersionCode: 42,
      appVersionName: '4.2.0',
    });
  });

  it('exports the app with the version, filtered by app and code like the list', async () => {
    const res = await get(apiPaths.machineExport, {
      appVersion: `${deviceApp}:42`,
      columns: 'machineNumber,appVersionCode',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Machine Number,App Version',
      `F-6,${deviceApp} 4.2.0 (42)`,
      `F-1,${deviceApp} 4.2.0 (42)`,
      '',
    ]);
    const older = await get(apiPaths.machineExport, {
      appVersion: ':40',
      columns: 'machineNumber,appVersionCode',
    });
    expect(older.body.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Machine Number,App Version',
      'F-5,4.0.0 (40)',
      '',
    ]);
  });

  it('combines facets with each other, the online state, search, sort and pages', async () => {
    expect(await listed({ country: 'Germany', status: '2', online: 'online' })).toEqual({
      numbers: ['F-1', 'F-3'],
      total: 2,
    });
    expect(await listed({ country: 'Germany', online: 'never' })).toEqual({ numbers: ['F-7'], total: 1 });
    expect(await listed({ city: 'Paris', search: 'f-5' })).toEqual({ numbers: ['F-5'], total: 1 });
    expect(await listed({ country: 'France', city: 'Berlin' })).toEqual({ numbers: [], total: 0 });
    const page2 = await get(apiPaths.machines, {
      status: '2',
      sort: 'machineNumber',
      direction: 'desc',
      limit: '2',
      page: '2',
    });
    expect(page2.json().data).toMatchObject({ total: 5, totalPages: 3, page: 2 });
    expect(page2.json().data.allDevices.map((d: { machineNumber: string }) => d.machineNumber)).toEqual([
      'F-4',
      'F-3',
    ]);
  });

  it('shows the same machines on the fleet map', async () => {
    const map = await get(apiPaths.machineMap, { country: 'Germany', status: '2', zoom: '3' });
    expect(map.statusCode, map.body).toBe(200);
    expect(map.json().data.total).toBe(3);
    const versionMap = await get(apiPaths.machineMap, { appVersion: 'none', zoom: '15' });
    const named = versionMap
      .json()
      .data.points.map((p: { device: { machineNumber: string } | null }) => p.device?.machineNumber);
    expect(named.sort()).toEqual(['F-4', 'F-7']);
    const appMap = await get(apiPaths.machineMap, { appVersion: `${deviceApp}:42`, zoom: '15' });
    expect(appMap.json().data.total).toBe(2);
  });

  it('names a bad facet value in a 400', async () => {
    const appVersionMessage =
      'appVersion must be none, a version code (40) or an app and version code (com.treatment.device:40)';
    const cases: [Record<string, string>, string][] = [
      [{ status: '3' }, 'status must be 1 (Inactive) or 2 (Active)'],
      [{ subscriptionStatus: 'paid' }, 'subscriptionStatus must be one of 1, 2, 3, 4, none'],
      [{ appVersion: '4.2' }, appVersionMessage],
      [{ appVersion: `${deviceApp}:` }, appVersionMessage],
      [{ appVersion: `${deviceApp}:4.2` }, appVersionMessage],
      [{ appVersion: '2147483648' }, appVersionMessage],
      [{ appVersion: `${'a'.repeat(121)}:2147483647` }, 'appVersion must be at most 131 characters'],
      [{ country: 'x'.repeat(101) }, 'country must be at most 100 characters'],
      [{ city: ' ' }, 'city must not be empty'],
    ];
    for (const [query, msg] of cases) {
      for (const url of [apiPaths.machines, apiPaths.machineMap]) {
        const res = await get(url, query);
        expect(res.statusCode, `${url} ${JSON.stringify(query)}`).toBe(400);
        expect(res.json().msg).toBe(msg);
      }
    }
  });
});

describe('GET /api/v1/admin/machine-facets', () => {
  it('offers the countries, cities and app versions with their counts, most first', async () => {
    const res = await get(apiPaths.machineFacets);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.countries).toEqual([
      { value: 'Germany', label: 'Germany', count: 4 },
      { value: 'France', label: 'France', count: 3 },
    ]);
    expect(data.cities).toEqual([
      { value: 'Berlin', label: 'Berlin', count: 3 },
      { value: 'Paris', label: 'Paris', count: 2 },
      { value: 'Hamburg', label: 'Hamburg', count: 1 },
      { value: 'Lyon', label: 'Lyon', count: 1 },
    ]);
    expect(data.appVersions).toEqual([
      { value: 'none', label: 'Never reported', count: 2 },
      { value: `${deviceApp}:42`, label: `${deviceApp} 4.2.0 (42)`, count: 2 },
      { value: ':40', label: '4.0.0 (40), app unknown', count: 1 },
      { value: `${deviceApp}:41`, label: `${deviceApp} 4.1.0 (41)`, count: 1 },
      { value: `${technicianApp}:42`, label: `${technicianApp} 4.2.0 (42)`, count: 1 },
    ]);
  });

  it('offers one app version per app and code, each value listing exactly the machines it counts', async () => {
    const { appVersions } = (await get(apiPaths.machineFacets)).json().data as {
      appVersions: { value: string; count: number }[];
    };
    const onCode42 = appVersions.filter((v) => v.value.endsWith(':42'));
    expect(onCode42).toHaveLength(2);
    expect(onCode42.reduce((sum, v) => sum + v.count, 0)).toBe((await listed({ appVersion: '42' })).total);
    for (const { value, count } of appVersions) {
      expect((await listed({ appVersion: value })).total, value).toBe(count);
    }
  });

  it('narrows the cities to a country, and counts a machine added since', async () => {
    const france = await get(apiPaths.machineFacets, { country: 'France' });
    expect(france.json().data.cities.map((c: { value: string }) => c.value)).toEqual(['Paris', 'Lyon']);
    const added = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.machineAdd,
      payload: deviceForm({ machineNumber: 'F-8', country: 'France', city: 'Nice' }),
    });
    expect(added.statusCode, added.body).toBe(201);
    const after = await get(apiPaths.machineFacets, { country: 'France' });
    expect(after.json().data.cities).toContainEqual({ value: 'Nice', label: 'Nice', count: 1 });
    expect(after.json().data.countries).toContainEqual({ value: 'France', label: 'France', count: 4 });
  });

  it('refuses an unknown field or an empty country, naming it', async () => {
    const unknown = await get(apiPaths.machineFacets, { city: 'Berlin' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toContain('city');
    const empty = await get(apiPaths.machineFacets, { country: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe('country must not be empty');
  });
});
