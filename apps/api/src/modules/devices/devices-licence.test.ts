import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import type { LicenceState } from '@app/contract/licences';
import { devices } from '#api/db/schema/devices.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { subscriptionRequests } from '../subscriptions/subscription-test-requests.ts';

/*
 * Issue 34 item 4: Device Management's Licence column, facet and export column, and the "lapsing
 * within N days" filter the dashboard links to. The states are written on the rows as the licence
 * ledger keeps them (licences.test.ts checks how they get there).
 */

const day = 86_400_000;
let t: TestApp;
let token: string;
let now: number;

// L-1 and L-5 active (L-1 ends in 5 days, L-5 in 40), L-2 in grace, L-3 lapsed, L-4 exempt, L-6
// unlicensed; L-7 in grace too, in France.
const rows: { number: string; state: LicenceState; ends?: number; country?: string }[] = [
  { number: 'L-1', state: 'active', ends: 5 },
  { number: 'L-2', state: 'grace', ends: -3 },
  { number: 'L-3', state: 'lapsed', ends: -30 },
  { number: 'L-4', state: 'exempt' },
  { number: 'L-5', state: 'active', ends: 40 },
  { number: 'L-6', state: 'unlicensed' },
  { number: 'L-7', state: 'grace', ends: -1, country: 'France' },
];
const paidThroughOf = (r: (typeof rows)[number]) =>
  r.ends === undefined ? null : new Date(now + r.ends * day);
const graceUntilOf = (r: (typeof rows)[number]) =>
  r.ends === undefined ? null : new Date(now + (r.ends + 14) * day);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  now = t.clock.now.getTime();
  await t.database.db.insert(devices).values(
    rows.map((r, i) => ({
      machineNumber: r.number,
      serialNumber: `SN-${r.number}`,
      location: `Clinic ${i}`,
      city: 'Berlin',
      country: r.country ?? 'Germany',
      address: 'Somewhere 1',
      latitude: 50 + i,
      longitude: 10 + i,
      createdAt: new Date(now - (10 - i) * 60_000),
      licenceState: r.state,
      licencePaidThrough: paidThroughOf(r),
      licenceActiveUntil: paidThroughOf(r),
      licenceGraceUntil: graceUntilOf(r),
    })),
  );
});
afterAll(() => t.close());

const get = (url: string, query: Record<string, string> = {}) =>
  t.injectAs(token, { method: 'GET', url, query });
type Listed = { _id: string; machineNumber: string; licenceState: string; licencePaidThrough: string | null };
async function listed(query: Record<string, string>) {
  const res = await get(apiPaths.machines, { sort: 'machineNumber', ...query });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { allDevices: Listed[]; total: number };
  return {
    numbers: data.allDevices.map((d) => d.machineNumber),
    total: data.total,
    devices: data.allDevices,
  };
}

describe('the Licence column of the device list', () => {
  it("carries each machine's licence state and dates, read the usual way and filtered", async () => {
    const expected = rows.map((r) => ({
      machineNumber: r.number,
      licenceState: r.state,
      licencePaidThrough: paidThroughOf(r)?.toISOString() ?? null,
      licenceGraceUntil: graceUntilOf(r)?.toISOString() ?? null,
    }));
    // Unfiltered: the page comes back as one JSON value; filtered: as rows (two ways to read a page).
    expect((await listed({})).devices).toMatchObject(expected);
    expect((await listed({ country: 'Germany' })).devices).toMatchObject(
      expected.filter((d) => d.machineNumber !== 'L-7'),
    );
    const one = await get(apiPaths.machine((await listed({})).devices[1]!._id));
    expect(one.json().data).toMatchObject(expected[1]!);
  });

  it('sorts by licence state, both ways, the machines of one state in a stable order', async () => {
    const asc = await listed({ sort: 'licenceState', direction: 'asc' });
    expect(asc.devices.map((d) => d.licenceState)).toEqual([
      'active',
      'active',
      'exempt',
      'grace',
      'grace',
      'lapsed',
      'unlicensed',
    ]);
    const desc = await listed({ sort: 'licenceState', direction: 'desc' });
    expect(desc.numbers).toEqual([...asc.numbers].reverse());
  });
});

describe('the Licence facet', () => {
  it('filters by each licence state with an exact total, combined with the other facets', async () => {
    expect(await listed({ licence: 'grace' })).toMatchObject({ numbers: ['L-2', 'L-7'], total: 2 });
    expect(await listed({ licence: 'active' })).toMatchObject({ numbers: ['L-1', 'L-5'], total: 2 });
    expect(await listed({ licence: 'lapsed' })).toMatchObject({ numbers: ['L-3'], total: 1 });
    expect(await listed({ licence: 'exempt' })).toMatchObject({ numbers: ['L-4'], total: 1 });
    expect(await listed({ licence: 'unlicensed' })).toMatchObject({ numbers: ['L-6'], total: 1 });
    expect(await listed({ licence: 'grace', country: 'France' })).toMatchObject({
      numbers: ['L-7'],
      total: 1,
    });
    expect(await listed({ licence: 'grace', search: 'l-2' })).toMatchObject({ numbers: ['L-2'], total: 1 });
  });

  it('finds the active licences whose paid time ends within N days (the dashboard\'s "lapsing")', async () => {
    expect(await listed({ licenceEndsWithin: '14' })).toMatchObject({ numbers: ['L-1'], total: 1 });
    expect(await listed({ licenceEndsWithin: '4' })).toMatchObject({ numbers: [], total: 0 });
    expect(await listed({ licenceEndsWithin: '60' })).toMatchObject({ numbers: ['L-1', 'L-5'], total: 2 });
    // Days from the server's clock: ten days on, L-5 ends within 30.
    t.clock.advance(10 * day);
    token = await t.login();
    expect(await listed({ licenceEndsWithin: '30' })).toMatchObject({ numbers: ['L-1', 'L-5'], total: 2 });
    t.clock.advance(-10 * day);
    token = await t.login();
  });

  it('shows the same machines on the fleet map', async () => {
    const map = await get(apiPaths.machineMap, { licence: 'grace', zoom: '15' });
    expect(map.statusCode, map.body).toBe(200);
    const named = map
      .json()
      .data.points.map((p: { device: { machineNumber: string } | null }) => p.device?.machineNumber);
    expect(named.sort()).toEqual(['L-2', 'L-7']);
  });

  it('offers every licence state with how many machines are in it', async () => {
    const res = await get(apiPaths.machineFacets);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.licences).toEqual([
      { value: 'active', label: 'Active', count: 2 },
      { value: 'grace', label: 'In grace', count: 2 },
      { value: 'lapsed', label: 'Lapsed', count: 1 },
      { value: 'exempt', label: 'Exempt', count: 1 },
      { value: 'unlicensed', label: 'Unlicensed', count: 1 },
    ]);
  });

  it('names a bad licence filter in a 400, on the list, the map and the export', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ licence: 'paid' }, 'licence must be one of active, grace, lapsed, exempt, unlicensed'],
      [{ licenceEndsWithin: 'soon' }, 'licenceEndsWithin must be a number of days'],
      [{ licenceEndsWithin: '0' }, 'licenceEndsWithin must be at least 1'],
      [{ licenceEndsWithin: '1.5' }, 'licenceEndsWithin must be a whole number of days'],
      [{ licenceEndsWithin: '367' }, 'licenceEndsWithin must be at most 366'],
    ];
    for (const [query, msg] of cases) {
      for (const url of [apiPaths.machines, apiPaths.machineMap, apiPaths.machineExport]) {
        const res = await get(url, query);
        expect(res.statusCode, `${url} ${JSON.stringify(query)}`).toBe(400);
        expect(res.json().msg).toBe(msg);
      }
    }
  });
});

describe('the Licence column of the export', () => {
  it("writes the state's words with its date (the UTC day), filtered like the list", async () => {
    const res = await get(apiPaths.machineExport, { columns: 'machineNumber,licenceState' });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(0, -1);
    const dayOf = (d: Date | null) => d!.toISOString().slice(0, 10);
    const [l1, l2, l3] = rows;
    expect(lines[0]).toBe('Machine Number,Licence');
    expect(lines.slice(1).sort()).toEqual(
      [
        `L-1,Active until ${dayOf(paidThroughOf(l1!))}`,
        `L-2,In grace until ${dayOf(graceUntilOf(l2!))}`,
        `L-3,Lapsed since ${dayOf(graceUntilOf(l3!))}`,
        'L-4,Exempt',
        `L-5,Active until ${dayOf(paidThroughOf(rows[4]!))}`,
        'L-6,Unlicensed',
        `L-7,In grace until ${dayOf(graceUntilOf(rows[6]!))}`,
      ].sort(),
    );
    const grace = await get(apiPaths.machineExport, { licence: 'grace', columns: 'machineNumber' });
    expect(
      grace.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(1, -1)
        .sort(),
    ).toEqual(['L-2', 'L-7']);
  });
});

describe("Device Details' subscriptions", () => {
  it('lists every subscription of the machine with its status, amount and paid-through date', async () => {
    const { add, checkout, pay } = subscriptionRequests(() => ({ t, token }));
    const make = async (amount: number) => {
      const res = await add({
        fullName: 'Clinic Owner',
        email: 'owner@example.test',
        machineSerialNumber: 'SN-L-6',
        amount,
        isRecurring: true,
        planType: 'month',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data._id as string;
    };
    const unpaid = await make(10);
    t.clock.advance(60_000);
    const paid = await make(99);
    const { clientSecret } = (await checkout(paid)).json().data;
    expect((await pay(paid, clientSecret)).statusCode).toBe(200);
    const device = (await listed({ search: 'l-6' })).devices[0]!;
    const res = await get(apiPaths.machine(device._id));
    const subs = res.json().data.subscriptionDetails as { _id: string; paidThrough: string | null }[];
    expect(subs.map((s) => s._id)).toEqual([paid, unpaid]);
    expect(subs[0]).toMatchObject({ status: 2, amount: 99, paidThrough: expect.any(String) });
    expect(new Date(subs[0]!.paidThrough!).getTime()).toBeGreaterThan(t.clock.now.getTime() + 27 * day);
    expect(subs[1]).toMatchObject({ status: 1, amount: 10, paidThrough: null });
    // The list reads them in the same statement as its page: the same paid-through date there.
    const inList = (await listed({})).devices.find((d) => d.machineNumber === 'L-6') as unknown as {
      subscriptionDetails: { paidThrough: string | null }[];
    };
    expect(inList.subscriptionDetails.map((s) => s.paidThrough)).toEqual(subs.map((s) => s.paidThrough));
  });
});
