import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../db/schema/devices.ts';
import { subscriptions } from '../db/schema/subscriptions.ts';
import { effectiveStatus } from '../modules/subscriptions/subscription-status.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { seedDemoData } from './seed-demo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the demo subscriptions', () => {
  it('cover every status, belong to demo devices, and read the same as they were written', async () => {
    const now = new Date();
    await seedDemoData(t.database.db, { now });
    const rows = await t.database.db.select().from(subscriptions);
    const serials = new Set(
      (await t.database.db.select({ s: devices.serialNumber }).from(devices)).map((d) => d.s),
    );

    expect(rows.length).toBeGreaterThan(20);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set([1, 2, 3, 4]));
    for (const row of rows) {
      expect(serials.has(row.machineSerialNumber)).toBe(true);
      expect(row.id.length).toBeGreaterThanOrEqual(22);
      // Nothing the seed wrote is already stale: the on-read status is the stored one.
      expect(effectiveStatus(row, now)).toBe(row.status);
      expect(row.isRecurring ? row.planType : null).toBe(row.planType);
    }
    expect(rows.some((r) => r.status === 2 && r.isRecurring)).toBe(true);
    expect(rows.some((r) => r.status === 2 && !r.isRecurring)).toBe(true);

    // The admin list shows them through the API, more than one page of them.
    const token = await t.login();
    const list = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/subscrption/all' })).json()
      .data;
    expect(list.total).toBe(rows.length);
    expect(list.total_pages).toBeGreaterThan(1);
  });
});
