import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operations } from '@app/contract/dashboard';
import { apiPaths } from '@app/contract/paths';
import { devices } from '#api/db/schema/devices.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { adminToken, enrolDevice, flushCheckIns, deviceInject } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Each figure after inserts, updates and the clock moving (the test app's `now`), and the answer
 * shaped by the role's permissions (decision 050).
 */

const minute = 60_000;
const day = 24 * 60 * minute;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEVICE_OFFLINE_MINUTES: '15' });
});
afterAll(() => t.close());

const operations = async (token?: string): Promise<Operations> => {
  const res = await t.injectAs(token ?? (await adminToken(t)), {
    method: 'GET',
    url: apiPaths.dashboardOperations,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as Operations;
};

const db = () => t.database.db;
async function addMachines(lastSeen: Array<Date | null>) {
  const rows = lastSeen.map((at) => {
    const tag = randomBytes(5).toString('hex');
    return {
      machineNumber: `DASH-${tag}`,
      serialNumber: `SN-${tag}`,
      location: 'Ward 1',
      latitude: 0,
      longitude: 0,
      city: 'Lyon',
      country: 'France',
      address: '1 rue A',
      lastSeenAt: at,
    };
  });
  return db().insert(devices).values(rows).returning({ id: devices.id });
}
async function addSubscription(status: number, expiredAt: Date, isRecurring = false) {
  await db()
    .insert(subscriptions)
    .values({
      id: randomBytes(18).toString('hex'),
      fullName: 'Ann Lee',
      email: 'ann@example.com',
      machineSerialNumber: 'SN-1',
      amountCents: 1000,
      isRecurring,
      planType: isRecurring ? 'month' : null,
      status,
      expiredAt,
    });
}
async function addTreatments(deviceId: string, times: Date[]) {
  await db()
    .insert(treatmentRecords)
    .values(
      times.map((createdAt) => ({
        deviceId,
        userName: 'Pat',
        treatmentDevice: 'Laser',
        treatmentPlan: 'Plan A',
        createdAt,
      })),
    );
}

describe('machines', () => {
  it('counts online, offline and never seen, and follows check-ins and the clock', async () => {
    const start = await operations();
    const now = t.clock.now.getTime();
    await addMachines([
      new Date(now - minute),
      new Date(now - 14 * minute),
      new Date(now - 16 * minute),
      null,
      null,
    ]);
    const after = (await operations()).machines!;
    expect(after).toEqual({
      online: start.machines!.online + 2,
      offline: start.machines!.offline + 1,
      neverSeen: start.machines!.neverSeen + 2,
      offlineMinutes: 15,
    });

    // A real machine checks in through the device API: never seen becomes online.
    const enrolled = await enrolDevice(t);
    const beforeCall = (await operations()).machines!;
    const res = await deviceInject(t, enrolled.credential, {
      method: 'POST',
      url: apiPaths.appHeartbeat,
      payload: { versionCode: 50, versionName: '1.50.0' },
    });
    expect(res.statusCode).toBe(200);
    await flushCheckIns(t);
    const called = (await operations()).machines!;
    expect(called.online).toBe(beforeCall.online + 1);
    expect(called.neverSeen).toBe(beforeCall.neverSeen - 1);

    // Time moves: two more minutes and the machine seen 14 minutes ago has been quiet 16.
    t.clock.advance(2 * minute);
    const later = (await operations()).machines!;
    expect(later.online).toBe(called.online - 1);
    expect(later.offline).toBe(called.offline + 1);
    expect(later.neverSeen).toBe(called.neverSeen);
    expect(later.online + later.offline + later.neverSeen).toBe(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(devices)
      )[0]!.n,
    );
  });

  it('follows machines deleted, and a threshold inside a minute', async () => {
    const now = t.clock.now.getTime();
    const before = (await operations()).machines!;
    // Seen 14 min 59.9 s and 15 min 0.1 s ago: the threshold falls inside one minute's bucket.
    const [inside, outside] = await addMachines([
      new Date(now - 15 * minute + 100),
      new Date(now - 15 * minute - 100),
    ]);
    const added = (await operations()).machines!;
    expect(added.online).toBe(before.online + 1);
    expect(added.offline).toBe(before.offline + 1);
    await db().delete(devices).where(eq(devices.id, inside!.id));
    await db().delete(devices).where(eq(devices.id, outside!.id));
    expect((await operations()).machines).toEqual(before);
  });

  it('counts open alarms from the counter the alarms keep', async () => {
    const before = (await operations()).openAlarms!;
    const [machine] = await addMachines([null]);
    await db().execute(
      sql`insert into alarms (device_id, rule, detail, opened_at) values (${machine!.id}, 'offline', '{}'::jsonb, now())`,
    );
    expect((await operations()).openAlarms).toBe(before + 1);
    await db().execute(sql`update alarms set resolved_at = now() where device_id = ${machine!.id}`);
    expect((await operations()).openAlarms).toBe(before);
  });
});

describe('subscriptions', () => {
  it('counts pending and failed links still open, and those expiring in 7 days, as time moves', async () => {
    const now = t.clock.now.getTime();
    await addSubscription(1, new Date(now + 2 * day)); // pending, expiring soon
    await addSubscription(1, new Date(now + 20 * day)); // pending
    await addSubscription(1, new Date(now - minute)); // lapsed: Expired, not Pending
    await addSubscription(4, new Date(now + 10 * day)); // failed
    await addSubscription(2, new Date(now + 3 * day), true); // paid period ends soon
    await addSubscription(2, new Date(now + 3 * day), false); // one-time, paid: nothing expires
    expect((await operations()).subscriptions).toEqual({ pending: 2, failed: 1, expiringIn7Days: 2 });

    // Paid: no longer pending (the state machine writes the status).
    await db().update(subscriptions).set({ status: 2 }).where(eq(subscriptions.isRecurring, false));
    expect((await operations()).subscriptions).toEqual({ pending: 0, failed: 0, expiringIn7Days: 1 });

    // Four days on, the paid period's end is past.
    t.clock.advance(4 * day);
    expect((await operations()).subscriptions).toEqual({ pending: 0, failed: 0, expiringIn7Days: 0 });
  });
});

describe('treatments', () => {
  it('counts today and the last 30 days by UTC day, with one entry per day for the chart', async () => {
    const [machine] = await addMachines([null]);
    const now = t.clock.now.getTime();
    await addTreatments(machine!.id, [
      new Date(now),
      new Date(now),
      new Date(now - 2 * day),
      new Date(now - 29 * day),
      new Date(now - 31 * day), // outside the 30 days
    ]);
    const figures = (await operations()).treatments!;
    expect(figures.days).toHaveLength(30);
    expect(figures.days.at(-1)).toEqual({ day: t.clock.now.toISOString().slice(0, 10), count: 2 });
    expect(figures.today).toBe(2);
    expect(figures.last30Days).toBe(4);
    expect(figures.days.filter((d) => d.count > 0).map((d) => d.count)).toEqual([1, 1, 2]);

    // A record deleted leaves its day; the next day starts at 0.
    await db()
      .delete(treatmentRecords)
      .where(eq(treatmentRecords.createdAt, new Date(now - 2 * day)));
    t.clock.advance(day);
    const next = (await operations()).treatments!;
    expect(next.today).toBe(0);
    expect(next.last30Days).toBe(2);
  });
});

describe("the spec's four tiles (issue 35 item 6)", () => {
  it('count the last 30 days: payment links, first-time customers, users added, admins who signed in', async () => {
    const admin = await adminToken(t);
    const before = (await operations(admin)).highlights;
    const at = t.clock.now.getTime();
    const link = (email: string, createdAt: Date) =>
      db()
        .insert(subscriptions)
        .values({
          id: randomBytes(18).toString('hex'),
          fullName: 'Kim Doe',
          email,
          machineSerialNumber: 'SN-T',
          amountCents: 1000,
          isRecurring: false,
          status: 0,
          expiredAt: new Date(createdAt.getTime() + 7 * day),
          createdAt,
        });
    const tag = randomBytes(4).toString('hex');
    // A returning customer (a link 40 days ago, another today: an order, not a new customer), a new
    // one with two links (one customer, two orders, whatever the case of the email), and an old link.
    await link(`old-${tag}@example.com`, new Date(at - 40 * day));
    await link(`old-${tag}@example.com`, new Date(at - day));
    await link(`new-${tag}@example.com`, new Date(at - 2 * day));
    await link(`NEW-${tag}@example.com`, new Date(at - day));
    await link(`gone-${tag}@example.com`, new Date(at - 31 * day));
    // A new console user who signs in: one more registration and one more visitor (the first admin
    // signed in already, once or many times: one visitor).
    const other = await signInWithPermissions(t, admin, []);
    await t.login();
    const after = (await operations(admin)).highlights;
    expect(after.newOrders).toBe(before.newOrders! + 3);
    expect(after.newCustomers).toBe(before.newCustomers! + 1);
    expect(after.userRegistrations).toBe(before.userRegistrations! + 1);
    expect(after.uniqueVisitors).toBe(Math.max(before.uniqueVisitors!, 1) + 1);
    expect(other.token).toBeTruthy();

    // 31 days on, all of it is older than the window.
    t.clock.advance(31 * day);
    expect((await operations(await t.login())).highlights).toMatchObject({
      newOrders: 0,
      newCustomers: 0,
      userRegistrations: 0,
      uniqueVisitors: 1,
    });
  });
});

describe('permissions', () => {
  it('answers only the figures the role may see', async () => {
    const admin = await adminToken(t);
    const only = async (permissions: Parameters<typeof signInWithPermissions>[2]) => {
      const { highlights, ...groups } = await operations(
        (await signInWithPermissions(t, admin, permissions)).token,
      );
      return [...Object.keys(groups), ...Object.keys(highlights).map((k) => `highlights.${k}`)].sort();
    };
    expect(await only([])).toEqual([]);
    expect(await only(['devices.view'])).toEqual(['licences', 'machines', 'openAlarms', 'remote']);
    expect(await only(['subscriptions.view'])).toEqual([
      'highlights.newCustomers',
      'highlights.newOrders',
      'subscriptions',
    ]);
    expect(await only(['patients.view'])).toEqual(['treatments']);
    expect(await only(['users.manage'])).toEqual(['highlights.userRegistrations']);
    expect(await only(['logs.view'])).toEqual(['highlights.uniqueVisitors']);
    expect(await only(['devices.view', 'subscriptions.view', 'patients.view'])).toEqual([
      'highlights.newCustomers',
      'highlights.newOrders',
      'licences',
      'machines',
      'openAlarms',
      'remote',
      'subscriptions',
      'treatments',
    ]);
  });

  it('refuses a caller without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: apiPaths.dashboardOperations });
    expect(res.statusCode).toBe(401);
  });
});

describe('each figure is the total of the list it links to', () => {
  const total = async (url: string, query: Record<string, string>) => {
    const res = await t.injectAs(await adminToken(t), { method: 'GET', url, query });
    expect(res.statusCode).toBe(200);
    return res.json().data.total as number;
  };

  it('machines: the device list filtered by online, offline and never seen, also with a search', async () => {
    const [seen] = await addMachines([new Date(t.clock.now.getTime() - minute)]);
    const { machines } = await operations();
    expect(await total(apiPaths.machines, { online: 'online' })).toBe(machines!.online);
    expect(await total(apiPaths.machines, { online: 'offline' })).toBe(machines!.offline);
    expect(await total(apiPaths.machines, { online: 'never' })).toBe(machines!.neverSeen);
    const [row] = await db().select().from(devices).where(eq(devices.id, seen!.id));
    const found = await t.injectAs(await adminToken(t), {
      method: 'GET',
      url: apiPaths.machines,
      query: { online: 'online', search: row!.machineNumber },
    });
    expect(found.json().data.allDevices.map((d: { _id: string }) => d._id)).toEqual([seen!.id]);
    expect(await total(apiPaths.machines, { online: 'never', search: row!.machineNumber })).toBe(0);
  });

  it('licences: the device list filtered by grace, lapsed and an active licence ending within 14 days', async () => {
    const now = t.clock.now.getTime();
    const before = (await operations()).licences!;
    const rows = await addMachines([null, null, null, null, null]);
    const states = [
      { licenceState: 'grace' as const, licenceActiveUntil: new Date(now - day) },
      { licenceState: 'lapsed' as const, licenceActiveUntil: new Date(now - 30 * day) },
      { licenceState: 'active' as const, licenceActiveUntil: new Date(now + 13 * day) },
      // Ends after the 14 days, and an exempt one: in none of the figures.
      { licenceState: 'active' as const, licenceActiveUntil: new Date(now + 15 * day) },
      { licenceState: 'exempt' as const, licenceActiveUntil: null },
    ];
    for (const [i, row] of rows.entries())
      await db().update(devices).set(states[i]!).where(eq(devices.id, row.id));
    const { licences } = await operations();
    expect(licences).toEqual({
      grace: before.grace + 1,
      lapsed: before.lapsed + 1,
      lapsing: before.lapsing + 1,
    });
    expect(await total(apiPaths.machines, { licence: 'grace' })).toBe(licences!.grace);
    expect(await total(apiPaths.machines, { licence: 'lapsed' })).toBe(licences!.lapsed);
    expect(await total(apiPaths.machines, { licenceEndsWithin: '14' })).toBe(licences!.lapsing);
  });

  it('subscriptions: the list filtered by status and by expiry within 7 days', async () => {
    const now = t.clock.now.getTime();
    await addSubscription(1, new Date(now + day));
    await addSubscription(4, new Date(now + 9 * day));
    await addSubscription(2, new Date(now + 6 * day), true);
    const { subscriptions: s } = await operations();
    expect(s!.pending).toBeGreaterThan(0);
    expect(await total(apiPaths.subscriptionsAll, { status: '1' })).toBe(s!.pending);
    expect(await total(apiPaths.subscriptionsAll, { status: '4' })).toBe(s!.failed);
    expect(await total(apiPaths.subscriptionsAll, { expiresWithin: '7' })).toBe(s!.expiringIn7Days);
  });

  it('treatments: the list filtered to today and to the last 30 days', async () => {
    const { treatments } = await operations();
    const days = treatments!.days;
    expect(await total(apiPaths.treatmentsAll, { from: days.at(-1)!.day, to: days.at(-1)!.day })).toBe(
      treatments!.today,
    );
    expect(await total(apiPaths.treatmentsAll, { from: days[0]!.day, to: days.at(-1)!.day })).toBe(
      treatments!.last30Days,
    );
  });

  it('refuses a filter it does not know with a 400 naming the field', async () => {
    const bad = async (url: string, query: Record<string, string>, field: string) => {
      const res = await t.injectAs(await adminToken(t), { method: 'GET', url, query });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toContain(field);
    };
    await bad(apiPaths.machines, { online: 'sometimes' }, 'online');
    await bad(apiPaths.machines, { licence: 'paid' }, 'licence');
    await bad(apiPaths.machines, { licenceEndsWithin: '0' }, 'licenceEndsWithin');
    await bad(apiPaths.subscriptionsAll, { status: '9' }, 'status');
    await bad(apiPaths.subscriptionsAll, { expiresWithin: '0' }, 'expiresWithin');
    await bad(apiPaths.treatmentsAll, { from: '2026-13-01' }, 'from');
  });
});
