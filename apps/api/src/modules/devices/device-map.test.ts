import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceMapMessages, type DeviceMap } from '@app/contract/device-map';
import { apiPaths } from '@app/contract/paths';
import { deviceForm as form, deviceInject, enrolDevice, flushCheckIns } from '#api/test/device-fixtures.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { deviceRequests } from './device-test-requests.ts';
import { overviewMaxAgeMs, overviewMaxZoom } from './fleet-overview.ts';
import { groupCells, mapCellDegrees } from './map-cells.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { add, get } = deviceRequests(() => ({ t, token }));
const map = (query: Record<string, string | number>) =>
  t.injectAs(token, { method: 'GET', url: apiPaths.machineMap, query: query as Record<string, string> });
const mapOf = async (query: Record<string, string | number>) => {
  const res = await map(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as DeviceMap;
};

// Three machines in Berlin a few hundred metres apart, two in Hamburg, one in Munich.
const places = [
  { machineNumber: 'MAP-B1', latitude: 52.52, longitude: 13.405, city: 'Berlin' },
  { machineNumber: 'MAP-B2', latitude: 52.521, longitude: 13.41, city: 'Berlin' },
  { machineNumber: 'MAP-B3', latitude: 52.519, longitude: 13.4, city: 'Berlin' },
  { machineNumber: 'MAP-H1', latitude: 53.55, longitude: 9.99, city: 'Hamburg' },
  { machineNumber: 'MAP-H2', latitude: 53.56, longitude: 10.0, city: 'Hamburg' },
  { machineNumber: 'MAP-M1', latitude: 48.137, longitude: 11.575, city: 'Munich' },
];
const ids = new Map<string, string>();

beforeAll(async () => {
  for (const place of places) {
    const res = await add(form(place));
    expect(res.statusCode, res.body).toBe(201);
    ids.set(place.machineNumber, res.json().data._id);
  }
  // MAP-M1 calls from Vienna: the map puts it where it says it is, not where it was registered.
  const { credential } = await enrolDevice(t, ids.get('MAP-M1'));
  const beat = await deviceInject(t, credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 1, versionName: '1.0', latitude: 48.2082, longitude: 16.3738 },
  });
  expect(beat.statusCode, beat.body).toBe(200);
  await flushCheckIns(t);
});

const byCount = (points: DeviceMap['points']) => [...points].sort((a, b) => b.count - a.count);

describe('GET /api/v1/admin/machine-map', () => {
  it('answers the whole fleet with its extent, clustered by place at a low zoom', async () => {
    const world = await mapOf({ zoom: 2 });
    expect(world).toMatchObject({ total: 6, inView: 6 });
    expect(world.extent).toEqual({ south: 48.2082, west: 9.99, north: 53.56, east: 16.3738 });
    // At zoom 2 a cell is 22.5 degrees wide: all six share one.
    expect(world.points).toHaveLength(1);
    expect(world.points[0]).toMatchObject({ count: 6, online: 1, offline: 0, never: 5, device: null });
  });

  it('splits into cities at a regional zoom, a lone machine being itself with its id', async () => {
    const region = await mapOf({ zoom: 7 });
    const points = byCount(region.points);
    expect(points.map((p) => p.count)).toEqual([3, 2, 1]);
    expect(points[0]!.latitude).toBeCloseTo(52.52, 3);
    expect(points[0]!.longitude).toBeCloseTo(13.405, 3);
    expect(points[2]).toMatchObject({
      count: 1,
      online: 1,
      device: { _id: ids.get('MAP-M1'), machineNumber: 'MAP-M1' },
      latitude: 48.2082,
      longitude: 16.3738,
    });
  });

  it('shows each machine past the cluster zoom', async () => {
    const street = await mapOf({ zoom: 17 });
    expect(street.points).toHaveLength(6);
    expect(street.points.map((p) => p.device?.machineNumber).sort()).toEqual(
      places.map((p) => p.machineNumber).sort(),
    );
  });

  it('answers only the machines in the bounds, without the fleet-wide count', async () => {
    const hamburg = await mapOf({ zoom: 9, west: 9.5, south: 53.3, east: 10.5, north: 53.8 });
    expect(hamburg).toMatchObject({ total: null, extent: null, inView: 2 });
    expect(hamburg.points.reduce((n, p) => n + p.count, 0)).toBe(2);
  });

  it("follows the device list's search and online filter", async () => {
    const berlin = await mapOf({ zoom: 17, search: 'berlin' });
    expect(berlin.total).toBe(3);
    expect(berlin.points.map((p) => p.device?.machineNumber).sort()).toEqual(['MAP-B1', 'MAP-B2', 'MAP-B3']);
    const online = await mapOf({ zoom: 2, online: 'online' });
    expect(online).toMatchObject({ total: 1, extent: { south: 48.2082, north: 48.2082 } });
    const never = await mapOf({ zoom: 2, online: 'never' });
    expect(never.total).toBe(5);
    const none = await mapOf({ zoom: 2, search: 'nowhere at all' });
    expect(none).toEqual({ total: 0, inView: 0, extent: null, points: [], tiles: null });
  });

  it('names the field in a 400 for bad bounds or zoom', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ west: 1, south: 2 }, deviceMapMessages.boundsIncomplete],
      [{ west: 10, south: 50, east: 5, north: 55 }, deviceMapMessages.boundsOrder],
      [{ west: 1, south: 95, east: 2, north: 96 }, 'south must be between -90 and 90'],
      [{ zoom: 30 }, 'zoom must be between 0 and 22'],
      [{ zoom: 'near' }, 'zoom must be a number'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [query, message] of cases) {
      const res = await map(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().msg).toContain(message);
    }
  });
});

describe('the kept overview of the whole fleet', () => {
  it('answers every zoom up to 8 with exactly the clusters a query of its own would', async () => {
    // More machines spread over two continents, so zooms split them differently.
    for (let i = 0; i < 12; i++) {
      const res = await add(
        form({ machineNumber: `MAP-X${i}`, latitude: -33 + i * 1.7, longitude: 151 - i * 9.3 }),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const onlineSince = new Date(t.clock.now.getTime() - t.config.deviceOfflineMinutes * 60_000);
    for (let zoom = 0; zoom <= overviewMaxZoom; zoom++) {
      const kept = await mapOf({ zoom });
      const own = await groupCells(t.database.db, { cell: mapCellDegrees(zoom), onlineSince });
      const sorted = (points: Array<{ latitude: number; longitude: number; count: number }>) =>
        points.map((p) => `${p.count}@${p.latitude.toFixed(6)},${p.longitude.toFixed(6)}`).sort();
      expect(sorted(kept.points), `zoom ${zoom}`).toEqual(
        sorted(
          own.map((c) => ({ count: c.count, latitude: c.latSum / c.count, longitude: c.lngSum / c.count })),
        ),
      );
      expect(kept.total).toBe(own.reduce((n, c) => n + c.count, 0));
    }
  });

  it('shows a moved machine at its new place on the next request, and a new one at once', async () => {
    await mapOf({ zoom: 8 });
    const id = ids.get('MAP-H1')!;
    const moved = await t.injectAs(token, {
      method: 'PUT',
      url: `/api/v1/admin/machine/${id}`,
      payload: form({
        machineNumber: 'MAP-H1',
        serialNumber: (await get(id)).json().data.serialNumber,
        latitude: -41.29,
        longitude: 174.78,
      }),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const wellington = await mapOf({ zoom: 8, west: 174, south: -42, east: 175.5, north: -41 });
    expect(wellington.points.map((p) => p.device?.machineNumber)).toEqual(['MAP-H1']);

    const added = await add(form({ machineNumber: 'MAP-NEW', latitude: 64.15, longitude: -21.94 }));
    expect(added.statusCode, added.body).toBe(201);
    const reykjavik = await mapOf({ zoom: 8, west: -23, south: 63.5, east: -21, north: 65 });
    expect(reykjavik.points.map((p) => p.device?.machineNumber)).toEqual(['MAP-NEW']);
  });

  it('shows a change of online state within the time it is kept', async () => {
    const before = await mapOf({ zoom: 2 });
    const online = before.points.reduce((n, p) => n + p.online, 0);
    t.clock.advance(overviewMaxAgeMs + 1);
    const { credential } = await enrolDevice(t, ids.get('MAP-B1'));
    await deviceInject(t, credential, {
      method: 'POST',
      url: apiPaths.appHeartbeat,
      payload: { versionCode: 1, versionName: '1.0' },
    });
    await flushCheckIns(t);
    // MAP-M1's heartbeat is still recent enough (the clock moved 15 s): both count.
    expect((await mapOf({ zoom: 2 })).points.reduce((n, p) => n + p.online, 0)).toBe(online + 1);
  });
});

describe('MAP_TILE_URL', () => {
  it('hands the tile address to the console and lets the CSP load images from its host, and only then', async () => {
    const plainCsp = (await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'];
    expect(plainCsp).toContain("img-src 'self' data: blob:;");
    expect((await mapOf({ zoom: 2 })).tiles).toBeNull();

    const tiled = await signedInApp({
      MAP_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: '© Example tiles',
    });
    try {
      const csp = (await tiled.t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'];
      expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.example.org;");
      const res = await tiled.t.injectAs(tiled.token, { method: 'GET', url: apiPaths.machineMap });
      expect(res.json().data.tiles).toEqual({
        url: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
        attribution: '© Example tiles',
      });
    } finally {
      await tiled.t.close();
    }
  });

  it('refuses to start with a tile address that is not https or lacks a placeholder', async () => {
    await expect(createTestApp({ MAP_TILE_URL: 'http://tiles.example.org/{z}/{x}/{y}.png' })).rejects.toThrow(
      /MAP_TILE_URL.*https/,
    );
    await expect(createTestApp({ MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}.png' })).rejects.toThrow(
      /MAP_TILE_URL.*\{y\}/,
    );
  });
});
