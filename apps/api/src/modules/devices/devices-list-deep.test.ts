import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { devices } from '#api/db/schema/devices.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { deviceForm as form } from '#api/test/device-fixtures.ts';

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
