import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceMapMessages, type DeviceMap } from '@app/contract/device-map';
import { apiPaths } from '@app/contract/paths';
import { deviceForm as form, deviceInject, enrolDevice, flushCheckIns } from '#api/test/device-fixtures.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { deviceRequests } from './device-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { add } = deviceRequests(() => ({ t, token }));
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
