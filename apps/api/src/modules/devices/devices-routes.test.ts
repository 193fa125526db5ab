import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { devices } from '../../db/schema/devices.ts';
import { subscriptions } from '../../db/schema/subscriptions.ts';
import { deviceInject, enrolDevice, flushCheckIns } from '../../test/device-fixtures.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const form = (over: Record<string, unknown> = {}) => ({
  machineNumber: `M-${randomBytes(4).toString('hex')}`,
  serialNumber: `SN-${randomBytes(4).toString('hex')}`,
  location: 'Clinic North',
  latitude: 52.52,
  longitude: 13.405,
  city: 'Berlin',
  country: 'Germany',
  address: 'Unter den Linden 1',
  ...over,
});
const add = (payload: unknown) =>
  t.injectAs(token, { method: 'POST', url: '/api/v1/admin/machine/add', payload: payload as object });
const list = (query: Record<string, string | number> = {}) =>
  t.injectAs(token, { method: 'GET', url: '/api/v1/admin/machine', query: query as Record<string, string> });
const get = (id: string) => t.injectAs(token, { method: 'GET', url: `/api/v1/admin/machine/${id}` });
const put = (id: string, payload: unknown) =>
  t.injectAs(token, { method: 'PUT', url: `/api/v1/admin/machine/${id}`, payload: payload as object });
const missingId = '00000000-0000-4000-8000-000000000000';

describe('POST /api/v1/admin/machine/add', () => {
  it('adds a device, Active by default, and answers with it and the message Device added', async () => {
    const body = form();
    const res = await add(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 201,
      msg: 'Device added',
      data: { ...body, status: 2, subscriptionStatus: null, subscriptionDetails: [] },
    });
    expect(res.json().data._id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes coordinates typed as text and an explicit first status', async () => {
    const res = await add(form({ latitude: ' -33.8688 ', longitude: '151.2093', status: 1 }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ latitude: -33.8688, longitude: 151.2093, status: 1 });
  });

  it('names every missing field with the form message', async () => {
    const res = await add({});
    expect(res.statusCode).toBe(400);
    const msg = res.json().msg;
    for (const text of [
      'Machine number is required',
      'Serial number is required',
      'Location is required',
      'Latitude is required',
      'Longitude is required',
      'City is required',
      'Country is required',
      'Address is required',
    ]) {
      expect(msg).toContain(text);
    }
  });

  it('treats blank text as missing', async () => {
    const res = await add(form({ city: '   ', latitude: '' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Latitude is required; City is required');
  });

  it('says the coordinates must be numbers, and within range', async () => {
    expect((await add(form({ latitude: 'north' }))).json().msg).toBe('Latitude must be a number');
    expect((await add(form({ longitude: '13,4' }))).json().msg).toBe('Longitude must be a number');
    expect((await add(form({ latitude: 91 }))).json().msg).toBe('Latitude must be between -90 and 90');
    expect((await add(form({ longitude: -180.5 }))).json().msg).toBe(
      'Longitude must be between -180 and 180',
    );
  });

  it('refuses wrong types, over-long text and a status other than 1 or 2', async () => {
    expect((await add(form({ machineNumber: 5 }))).json().msg).toBe('Machine number must be text');
    expect((await add(form({ address: 'x'.repeat(501) }))).json().msg).toBe(
      'Address must be at most 500 characters',
    );
    expect((await add(form({ status: 3 }))).json().msg).toBe('Status must be 1 (Inactive) or 2 (Active)');
  });

  it('answers a duplicate machine or serial number with 409, whatever the letter case', async () => {
    const first = form();
    expect((await add(first)).statusCode).toBe(201);
    const sameMachine = await add(form({ machineNumber: first.machineNumber.toUpperCase() }));
    expect(sameMachine.statusCode).toBe(409);
    expect(sameMachine.json()).toEqual({
      code: 409,
      msg: 'A device with this machine number already exists',
      data: null,
    });
    const sameSerial = await add(form({ serialNumber: first.serialNumber }));
    expect(sameSerial.json().msg).toBe('A device with this serial number already exists');
    const both = await add(form({ machineNumber: first.machineNumber, serialNumber: first.serialNumber }));
    expect(both.json().msg).toBe(
      'A device with this machine number already exists; A device with this serial number already exists',
    );
  });

  it('answers bad bodies with a 4xx and a message, never a 500', async () => {
    const cases = [
      t.injectAs(token, { method: 'POST', url: '/api/v1/admin/machine/add' }),
      t.injectAs(token, {
        method: 'POST',
        url: '/api/v1/admin/machine/add',
        headers: { 'content-type': 'application/json' },
        payload: '{"machineNumber":',
      }),
      t.injectAs(token, {
        method: 'POST',
        url: '/api/v1/admin/machine/add',
        payload: [1, 2] as unknown as object,
      }),
      add(form({ latitude: { $gt: 0 }, machineNumber: null })),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(res.json().msg.length).toBeGreaterThan(0);
    }
  });
});

describe('GET and PUT /api/v1/admin/machine/{id}', () => {
  it('reads one device', async () => {
    const created = (await add(form())).json().data;
    const res = await get(created._id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(created);
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    expect((await get(missingId)).json()).toEqual({ code: 404, msg: 'Device not found', data: null });
    for (const bad of ['123', 'not-an-id', "1' or '1'='1", '%00']) {
      const res = await get(encodeURIComponent(bad));
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toBe('Invalid device id');
    }
    expect((await put(missingId, { status: 1 })).statusCode).toBe(404);
    expect((await put('nope', { status: 1 })).statusCode).toBe(400);
  });

  it('updates the form fields and keeps the machine and serial number', async () => {
    const created = (await add(form())).json().data;
    const res = await put(
      created._id,
      form({
        machineNumber: created.machineNumber,
        serialNumber: created.serialNumber,
        city: 'Potsdam',
        latitude: '52.39',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe('Device updated successfully');
    expect(res.json().data).toMatchObject({
      city: 'Potsdam',
      latitude: 52.39,
      machineNumber: created.machineNumber,
    });
    expect(new Date(res.json().data.updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(created.updatedAt).getTime(),
    );
  });

  it('refuses to change the machine or serial number and leaves the device as it was', async () => {
    const created = (await add(form())).json().data;
    const res = await put(
      created._id,
      form({ machineNumber: 'OTHER-1', serialNumber: created.serialNumber, city: 'Elsewhere' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Machine number cannot be changed');
    const res2 = await put(
      created._id,
      form({ machineNumber: created.machineNumber, serialNumber: 'OTHER-2' }),
    );
    expect(res2.json().msg).toBe('Serial number cannot be changed');
    expect((await get(created._id)).json().data).toEqual(created);
  });

  it('changes only the status when the body holds only the status', async () => {
    const created = (await add(form())).json().data;
    const res = await put(created._id, { status: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      msg: 'Status updated successfully!',
      data: { ...created, status: 1, updatedAt: expect.any(String) },
    });
    expect((await put(created._id, { status: '2' })).json().data.status).toBe(2);
  });

  it('names the rule when the status or the form is incomplete or wrong, and changes nothing', async () => {
    const created = (await add(form())).json().data;
    expect((await put(created._id, {})).json().msg).toBe('Status is required');
    expect((await put(created._id, { status: 7 })).json().msg).toBe(
      'Status must be 1 (Inactive) or 2 (Active)',
    );
    const partial = await put(created._id, { machineNumber: created.machineNumber, city: 'Somewhere' });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().msg).toContain('Serial number is required');
    expect(partial.json().msg).toContain('Latitude is required');
    expect(
      (
        await put(
          created._id,
          form({
            machineNumber: created.machineNumber,
            serialNumber: created.serialNumber,
            longitude: 'east',
          }),
        )
      ).json().msg,
    ).toBe('Longitude must be a number');
    expect((await get(created._id)).json().data).toEqual(created);
  });

  it('shows the latest subscription of the device, an unpaid link past expiry as Expired', async () => {
    const created = (await add(form())).json().data;
    const day = 86_400_000;
    const base = t.clock.now.getTime();
    await t.database.db.insert(subscriptions).values([
      {
        id: 'sub-old',
        fullName: 'A',
        email: 'a@b.co',
        machineSerialNumber: created.serialNumber,
        amountCents: 1000,
        isRecurring: false,
        status: 2,
        createdAt: new Date(base - 10 * day),
        expiredAt: new Date(base + day),
      },
      {
        id: 'sub-new',
        fullName: 'A',
        email: 'a@b.co',
        machineSerialNumber: created.serialNumber.toUpperCase(),
        amountCents: 2550,
        isRecurring: true,
        planType: 'month',
        status: 1,
        createdAt: new Date(base - day),
        expiredAt: new Date(base - 1000),
      },
    ]);
    const device = (await get(created._id)).json().data;
    expect(device.subscriptionStatus).toBe(3);
    expect(device.subscriptionDetails).toEqual([
      {
        _id: 'sub-new',
        status: 3,
        createdAt: expect.any(String),
        expiredAt: expect.any(String),
        isRecurring: true,
        planType: 'month',
        amount: 25.5,
      },
      expect.objectContaining({ _id: 'sub-old', status: 2, isRecurring: false, amount: 10 }),
    ]);
  });
  it("sorts by the status of each device's latest subscription as subscriptions come and change", async () => {
    const tag = randomBytes(3).toString('hex');
    const a = (await add(form({ location: `Sub ${tag} A` }))).json().data;
    const b = (await add(form({ location: `Sub ${tag} B` }))).json().data;
    const day = 86_400_000;
    const base = t.clock.now.getTime();
    const sub = (id: string, serial: string, status: number, ageDays: number) => ({
      id,
      fullName: 'A',
      email: 'a@b.co',
      machineSerialNumber: serial,
      amountCents: 100,
      isRecurring: false,
      status,
      createdAt: new Date(base - ageDays * day),
      expiredAt: new Date(base + 30 * day),
    });
    await t.database.db
      .insert(subscriptions)
      .values([
        sub(`${tag}-a1`, a.serialNumber, 2, 5),
        sub(`${tag}-a2`, a.serialNumber, 4, 1),
        sub(`${tag}-b1`, b.serialNumber, 1, 1),
      ]);
    const order = async () =>
      (await list({ search: `sub ${tag}`, sort: 'subscriptionStatus' }))
        .json()
        .data.allDevices.map((d: { location: string; subscriptionStatus: number }) => [
          d.location.slice(-1),
          d.subscriptionStatus,
        ]);
    expect(await order()).toEqual([
      ['B', 1],
      ['A', 4],
    ]);
    await t.database.db
      .update(subscriptions)
      .set({ status: 2 })
      .where(eq(subscriptions.id, `${tag}-a2`));
    await t.database.db
      .update(subscriptions)
      .set({ status: 3 })
      .where(eq(subscriptions.id, `${tag}-b1`));
    expect(await order()).toEqual([
      ['A', 2],
      ['B', 3],
    ]);
  });
});

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
        'sort must be one of createdAt, machineNumber, serialNumber, location, city, country, status, subscriptionStatus, lastSeenAt, appVersionCode',
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

describe('GET /api/v1/admin/machine on more than a thousand devices', () => {
  let t3: TestApp;
  let token3: string;
  const count = 1203;
  beforeAll(async () => {
    t3 = await createTestApp();
    token3 = await t3.login();
    const base = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: count }, (_, i) => ({
      machineNumber: `B-${String(i + 1).padStart(4, '0')}`,
      serialNumber: `BS-${i + 1}`,
      location: `Site ${i % 7}`,
      latitude: 1,
      longitude: 2,
      city: i % 3 === 0 ? 'Graz' : 'Linz',
      country: 'Austria',
      address: 'Ring 1',
      status: 1 + (i % 2),
      subscriptionStatus: i % 5 === 0 ? null : 1 + (i % 4),
      createdAt: new Date(base + i * 1000),
      updatedAt: new Date(base),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t3.database.db.insert(devices).values(rows.slice(i, i + 500));
  });
  afterAll(() => t3.close());
  const page = async (query: Record<string, string | number>) => {
    const res = await t3.injectAs(token3, {
      method: 'GET',
      url: '/api/v1/admin/machine',
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      allDevices: { _id: string; machineNumber: string; status: number; subscriptionStatus: number | null }[];
      total: number;
      totalPages: number;
      totalIsEstimate: boolean;
    };
  };
  const walk = async (query: Record<string, string>) => {
    const all = [];
    for (let p = 1; p <= 13; p++) all.push(...(await page({ ...query, page: p, limit: 100 })).allDevices);
    return all;
  };

  it('counts every device, and follows adds', async () => {
    expect(await page({})).toMatchObject({ total: count, totalPages: 121 });
    const added = await t3.injectAs(token3, {
      method: 'POST',
      url: '/api/v1/admin/machine/add',
      payload: form(),
    });
    expect(added.statusCode).toBe(201);
    expect((await page({})).total).toBe(count + 1);
    await t3.database.db.delete(devices).where(eq(devices.id, added.json().data._id));
    expect((await page({})).total).toBe(count);
    expect(await page({ search: 'graz' })).toMatchObject({ total: 401, totalIsEstimate: false });
    expect(await page({})).toMatchObject({ totalIsEstimate: false });
  });

  it('gives deep pages, read from the far end, in exactly the order of the near ones', async () => {
    const asc = await walk({ sort: 'machineNumber' });
    expect(asc.map((d) => d.machineNumber)).toEqual(
      Array.from({ length: count }, (_, i) => `B-${String(i + 1).padStart(4, '0')}`),
    );
    const desc = await walk({ sort: 'machineNumber', direction: 'desc' });
    expect(desc.map((d) => d.machineNumber)).toEqual(asc.map((d) => d.machineNumber).reverse());
    expect(
      (await page({ sort: 'machineNumber', page: 121, limit: 10 })).allDevices.map((d) => d.machineNumber),
    ).toEqual(['B-1201', 'B-1202', 'B-1203']);
    expect((await page({ page: 122, limit: 10 })).allDevices).toEqual([]);
  });

  it('keeps ties in one stable order across near and deep pages', async () => {
    for (const [sort, key] of [
      ['status', 'status'],
      ['subscriptionStatus', 'subscriptionStatus'],
    ] as const) {
      for (const direction of ['asc', 'desc']) {
        const all = await walk({ sort, direction });
        expect(new Set(all.map((d) => d._id)).size, `${sort} ${direction}`).toBe(count);
        const values = all.map((d) => d[key] ?? (direction === 'asc' ? 99 : 99));
        // Nulls come last going up and first going down, as PostgreSQL orders them.
        const expected = [...values].sort((a, b) => (direction === 'asc' ? a - b : b - a));
        expect(values, `${sort} ${direction}`).toEqual(expected);
      }
    }
    const searched = await walk({ search: 'austria', sort: 'location', direction: 'desc' });
    expect(new Set(searched.map((d) => d._id)).size).toBe(count);
  });

  it('estimates the total of a search matching more than 2,000 devices, and still pages through it', async () => {
    const more = Array.from({ length: 900 }, (_, i) => ({
      machineNumber: `C-${String(i + 1).padStart(4, '0')}`,
      serialNumber: `CS-${i + 1}`,
      location: 'Annex',
      latitude: 1,
      longitude: 2,
      city: 'Wels',
      country: 'Austria',
      address: 'Ring 2',
    }));
    for (let i = 0; i < more.length; i += 450)
      await t3.database.db.insert(devices).values(more.slice(i, i + 450));
    const first = await page({ search: 'austria' });
    expect(first.totalIsEstimate).toBe(true);
    expect(first.total).toBeGreaterThan(2000);
    expect(first.allDevices).toHaveLength(10);
    const last = await page({ search: 'austria', sort: 'machineNumber', page: 22, limit: 100 });
    expect(last.allDevices.map((d) => d.machineNumber)).toEqual(
      Array.from({ length: 3 }, (_, i) => `C-${String(898 + i).padStart(4, '0')}`),
    );
    expect(last.total).toBeGreaterThanOrEqual(2103);
    expect((await page({ search: 'wels' })).totalIsEstimate).toBe(false);
  });
});

describe('authentication', () => {
  it('refuses every device route without a valid token', async () => {
    const id = missingId;
    const requests = [
      t.app.inject({ method: 'GET', url: '/api/v1/admin/machine' }),
      t.app.inject({ method: 'POST', url: '/api/v1/admin/machine/add', payload: form() }),
      t.app.inject({ method: 'GET', url: `/api/v1/admin/machine/${id}` }),
      t.app.inject({ method: 'PUT', url: `/api/v1/admin/machine/${id}`, payload: { status: 1 } }),
      t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/machine',
        headers: { authorization: 'Bearer a.b.c' },
      }),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(401);
    }
    const before = (await list()).json().data.total;
    expect(before).toBeGreaterThan(0);
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
});
