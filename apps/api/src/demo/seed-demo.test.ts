import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  devices,
  doctors,
  patients,
  technicians,
  treatmentImages,
  treatmentRecords,
} from '../db/schema/devices.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { seedDemoData } from './seed-demo.ts';

const now = new Date('2025-06-01T12:00:00Z');
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestApp(), createTestApp()]);
});
afterAll(() => Promise.all([a.close(), b.close()]));

const count = async (t: TestApp, table: PgTable) =>
  ((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table)) as [{ n: number }])[0].n;

describe('the demo data set', () => {
  it('fills an empty database once, and the same way from the same seed', async () => {
    const first = await seedDemoData(a.database.db, { now });
    const second = await seedDemoData(b.database.db, { now });
    expect(first).toEqual({ seeded: true, devices: 60 });
    expect(second).toEqual(first);
    expect(await seedDemoData(a.database.db, { now })).toEqual({ seeded: false, devices: 60 });

    const snapshot = async (t: TestApp) => ({
      devices: await t.database.db
        .select({
          m: devices.machineNumber,
          s: devices.serialNumber,
          l: devices.location,
          lat: devices.latitude,
        })
        .from(devices)
        .orderBy(asc(devices.machineNumber)),
      doctors: await t.database.db
        .select({ n: doctors.userName, e: doctors.email })
        .from(doctors)
        .orderBy(asc(doctors.userId)),
      images: await t.database.db
        .select({ u: treatmentImages.url })
        .from(treatmentImages)
        .orderBy(asc(treatmentImages.url))
        .limit(50),
    });
    expect(await snapshot(a)).toEqual(await snapshot(b));
  });

  it('puts devices in real cities with coordinates and every kind of related record', async () => {
    const rows = await a.database.db.select().from(devices);
    expect(new Set(rows.map((d) => d.city)).size).toBe(60);
    for (const d of rows) {
      expect(Math.abs(d.latitude)).toBeLessThanOrEqual(90);
      expect(Math.abs(d.longitude)).toBeLessThanOrEqual(180);
    }
    expect(rows.find((d) => d.city === 'Berlin')).toMatchObject({
      country: 'Germany',
      latitude: expect.closeTo(52.52, 1),
    });
    expect(new Set(rows.map((d) => d.status))).toEqual(new Set([1, 2]));
    expect(await count(a, doctors)).toBeGreaterThan(60);
    expect(await count(a, technicians)).toBeGreaterThan(20);
    expect(await count(a, patients)).toBeGreaterThan(200);
    expect(await count(a, treatmentRecords)).toBeGreaterThan(200);
    expect(await count(a, treatmentImages)).toBeGreaterThan(200);
    expect(await count(a, accessLogs)).toBeGreaterThan(1000);
    expect(await count(a, errorLogs)).toBeGreaterThan(50);
  });

  it('leaves some devices empty and gives one doctor more than 25 patients, so empty texts and pagers show', async () => {
    const token = await a.login();
    const list = (
      await a.injectAs(token, { method: 'GET', url: '/api/v1/admin/machine', query: { limit: '100' } })
    ).json().data.allDevices;
    const doctorsOf = async (machineNumber: string) =>
      (
        await a.injectAs(token, { method: 'GET', url: '/api/v1/admin/doctor/all', query: { machineNumber } })
      ).json().data.total;
    const totals = await Promise.all(list.map((d: { machineNumber: string }) => doctorsOf(d.machineNumber)));
    expect(totals.filter((n) => n === 0).length).toBeGreaterThanOrEqual(3);
    const n = sql<number>`count(*)::int`;
    const [busiest] = await a.database.db
      .select({ n })
      .from(patients)
      .groupBy(patients.doctorId)
      .orderBy(desc(n))
      .limit(1);
    expect(busiest!.n).toBeGreaterThan(25);
  });

  it('makes treatment images small SVG pictures carried as data URLs', async () => {
    const token = await a.login();
    const [withImages] = await a.database.db
      .select({ id: treatmentImages.treatmentId })
      .from(treatmentImages)
      .limit(1);
    const detail = (
      await a.injectAs(token, { method: 'GET', url: `/api/v1/admin/treatement-records/${withImages!.id}` })
    ).json().data;
    expect(detail.treatmentImages.length).toBeGreaterThan(0);
    for (const image of detail.treatmentImages) {
      expect(image.url).toMatch(/^data:image\/svg\+xml;base64,/);
      const svg = Buffer.from(image.url.split(',')[1], 'base64').toString();
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/);
      expect(image.url.length).toBeLessThan(4000);
    }
  });
});
