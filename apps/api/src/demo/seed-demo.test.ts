import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { devices, doctors, patients, technicians } from '../db/schema/devices.ts';
import { treatmentImages, treatmentRecords } from '../db/schema/treatments.ts';
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

  it('fills the newest device (the first row of the console list) with every kind of record', async () => {
    const token = await a.login();
    const [first] = (
      await a.injectAs(token, { method: 'GET', url: '/api/v1/admin/machine', query: { limit: '10' } })
    ).json().data.allDevices as { machineNumber: string }[];
    const total = async (url: string) =>
      (await a.injectAs(token, { method: 'GET', url, query: { machineNumber: first!.machineNumber } })).json()
        .data.total as number;
    expect(await total('/api/v1/admin/doctor/all')).toBeGreaterThan(0);
    expect(await total('/api/v1/admin/patient/all')).toBeGreaterThan(0);
    expect(await total('/api/v1/admin/treatement-records/all')).toBeGreaterThan(0);
    expect(await total('/api/v1/admin/access-logs/all')).toBeGreaterThan(0);
    expect(await total('/api/v1/admin/error-logs/all')).toBeGreaterThan(0);
  });

  it('looks like what the machines’ app sends: user names, the app’s ids and routes, receive times, check-ins', async () => {
    const db = a.database.db;
    const doctorRows = await db.select().from(doctors);
    for (const d of doctorRows) {
      expect(d.userName).toMatch(/^dr\.[a-z]+\.[a-z]+[0-9]*$/);
      expect(d.clientId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(d.receivedAt!.getTime()).toBeGreaterThanOrEqual(d.createTime!.getTime());
      expect(d).toMatchObject({
        nickName: expect.any(String),
        city: expect.any(String),
        country: expect.any(String),
      });
    }
    const patientRows = await db.select().from(patients);
    // Patients do not sign in: their name is a person's name, as the app's form takes it.
    expect(patientRows.every((p) => /^\S+ \S+/.test(p.patientname) && p.clientId)).toBe(true);
    const treatments = await db.select().from(treatmentRecords);
    expect(treatments.every((r) => r.clientId && r.receivedAt! >= r.createdAt)).toBe(true);
    // The machines' rows (the console users' own activity is in the same table).
    const appUserIds = new Set(
      [...doctorRows, ...(await db.select().from(technicians))].map((u) => String(u.userId)),
    );
    const logs = (await db.select().from(accessLogs)).filter((l) => appUserIds.has(l.userId!));
    expect(logs.length).toBeGreaterThan(1000);
    expect(logs.every((l) => l.resource.includes(' /api/v1/app/') && l.clientId && l.receivedAt)).toBe(true);
    expect(new Set(logs.map((l) => l.resource))).toContain('POST /api/v1/app/heartbeat');
    const machines = await db.select().from(devices);
    expect(machines.every((m) => m.lastSeenAt && m.appVersionCode && m.appVersionName)).toBe(true);
    const quiet = machines.filter((m) => now.getTime() - m.lastSeenAt!.getTime() > 15 * 60_000);
    expect(quiet.length).toBeGreaterThan(0);
    expect(quiet.length).toBeLessThan(machines.length / 2);
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
