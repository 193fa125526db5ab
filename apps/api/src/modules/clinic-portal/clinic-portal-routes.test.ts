import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ClinicMachineList,
  ClinicSubscriptions,
  Figures,
  UsageReport,
} from '@app/contract/clinic-portal';
import {
  clinicPortalApiPaths as paths,
  clinicPortalMessages,
  formerMachineLabel,
  noDoctorLabel,
} from '@app/contract/clinic-portal-texts';
import { logInWords } from '@app/contract/log-words';
import { apiPaths } from '@app/contract/paths';
import { subscriptionOperationPaths } from '@app/contract/subscription-operations';
import { accessLogs } from '#api/db/schema/logs.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { twoClinics } from './portal-test-data.ts';

let t: TestApp;
let data: Awaited<ReturnType<typeof twoClinics>>;
beforeAll(async () => {
  t = await createTestApp();
  data = await twoClinics(t);
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.injectAs(token, { method: 'GET', url });
const json = <T>(res: { json: () => unknown }) => (res.json() as { data: T }).data;

describe("a clinic's machines", () => {
  it('lists only the machines the clinic holds now: a machine moved away is gone, one moved in is there', async () => {
    const { a, b, machines } = data;
    const ofA = json<ClinicMachineList>(await get(a.token, paths.machines));
    expect(ofA.machines.map((m) => m.machineNumber)).toEqual([machines.kept.machineNumber]);
    expect(ofA.total).toBe(1);
    expect(ofA.machines[0]).toMatchObject({ licenceState: 'unlicensed', online: false, lastSeenAt: null });
    expect(ofA.machines[0]!.heldSince).not.toBeNull();
    const ofB = json<ClinicMachineList>(await get(b.token, `${paths.machines}?sort=machineNumber`));
    expect(ofB.machines.map((m) => m.machineNumber).sort()).toEqual(
      [machines.moved.machineNumber, machines.own.machineNumber].sort(),
    );
  });

  it('searches, sorts and pages within the clinic, and a search for another clinic’s machine finds none', async () => {
    const { a, b, machines } = data;
    const paged = json<ClinicMachineList>(
      await get(b.token, `${paths.machines}?limit=1&sort=serialNumber&direction=desc`),
    );
    expect(paged).toMatchObject({ total: 2, totalPages: 2, page: 1, limit: 1 });
    const serials = [machines.moved.serialNumber, machines.own.serialNumber].sort().reverse();
    expect(paged.machines[0]!.serialNumber).toBe(serials[0]);
    const found = json<ClinicMachineList>(
      await get(b.token, `${paths.machines}?search=${machines.own.machineNumber}`),
    );
    expect(found.machines.map((m) => m._id)).toEqual([machines.own.deviceId]);
    const other = json<ClinicMachineList>(
      await get(a.token, `${paths.machines}?search=${machines.own.machineNumber}`),
    );
    expect(other).toMatchObject({ machines: [], total: 0, totalPages: 1 });
  });

  it('refuses a bad sort with a 400 naming it, the admin with a 403, and a clinic user on the admin device list', async () => {
    const bad = await get(data.a.token, `${paths.machines}?sort=secret`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors[0].path).toBe('sort');
    expect((await get(data.admin, paths.machines)).statusCode).toBe(403);
    expect((await get(data.a.token, apiPaths.machines)).statusCode).toBe(403);
  });
});

describe("a clinic's treatment figures", () => {
  it("keeps a moved machine's old records with the clinic that held it, and shows it none of the new ones", async () => {
    const { a, b, machines } = data;
    const ofA = json<Figures>(await get(a.token, paths.figures));
    expect(ofA.total).toEqual({ count: 5, minutes: 50 });
    expect(ofA.byMachine).toEqual([
      {
        deviceId: machines.moved.deviceId,
        label: formerMachineLabel(machines.moved.deviceId),
        current: false,
        count: 3,
        minutes: 30,
      },
      {
        deviceId: machines.kept.deviceId,
        label: machines.kept.machineNumber,
        current: true,
        count: 2,
        minutes: 20,
      },
    ]);
    expect(ofA.byDoctor).toEqual([
      { doctorId: null, label: noDoctorLabel, count: 3, minutes: 30 },
      { doctorId: data.doctorId, label: 'Dr. Kept', count: 2, minutes: 20 },
    ]);
    const ofB = json<Figures>(await get(b.token, paths.figures));
    expect(ofB.total).toEqual({ count: 9, minutes: 130 });
    expect(ofB.byMachine.map((m) => [m.label, m.count])).toEqual([
      [machines.own.machineNumber, 5],
      [machines.moved.machineNumber, 4],
    ]);
    expect(ofB.byDoctor.map((d) => d.label)).toEqual([noDoctorLabel]);
  });

  it('gives every week and month of the range, none missing, adding up to the total', async () => {
    const ofB = json<Figures>(await get(data.b.token, paths.figures));
    expect(ofB.byMonth.length).toBeGreaterThanOrEqual(12);
    expect(ofB.byWeek.length).toBeGreaterThanOrEqual(52);
    for (const list of [ofB.byMonth, ofB.byWeek])
      expect(list.reduce((s, r) => s + r.count, 0)).toBe(ofB.total.count);
    expect(new Date(`${ofB.byWeek[0]!.week}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it('counts only the range asked for, on the clinic’s own days', async () => {
    const day = (ago: number) =>
      new Date(t.clock.now.getTime() - ago * 86_400_000).toISOString().slice(0, 10);
    const recent = json<Figures>(await get(data.a.token, `${paths.figures}?from=${day(7)}&to=${day(0)}`));
    expect(recent).toMatchObject({ from: day(7), to: day(0), total: { count: 2 } });
    expect(recent.byMachine.map((m) => m.current)).toEqual([true]);
  });

  it('refuses a bad day, a reversed range and one too long with a 400 naming the field', async () => {
    for (const [query, path, msg] of [
      ['from=2026-13-01', 'from', clinicPortalMessages.fromInvalid],
      ['from=2026-05-02&to=2026-05-01', 'to', clinicPortalMessages.toBeforeFrom],
      ['from=2020-01-01&to=2026-01-01', 'to', clinicPortalMessages.rangeTooLong],
      ['secret=1', 'secret', undefined],
    ] as const) {
      const res = await get(data.a.token, `${paths.figures}?${query}`);
      expect(res.statusCode, query).toBe(400);
      const error = res.json().data.errors[0];
      expect(path === 'secret' ? error.message : error.path, query).toMatch(path);
      if (msg) expect(res.json().data.errors[0].message).toBe(msg);
    }
  });

  it('downloads one grouping as CSV, audited with the clinic before the first byte', async () => {
    const { a, machines } = data;
    const res = await get(a.token, `${paths.figuresExport}?by=machine`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      'Machine,Held now,Treatments,Minutes',
      `${formerMachineLabel(machines.moved.deviceId)},no,3,30`,
      `${machines.kept.machineNumber},yes,2,20`,
    ]);
    const rows = await t.database.db
      .select({ resource: accessLogs.resource, customerId: accessLogs.customerId })
      .from(accessLogs)
      .where(and(eq(accessLogs.userId, a.userId), like(accessLogs.resource, 'EXPORT%')));
    expect(rows).toEqual(
      expect.arrayContaining([
        { resource: 'EXPORTING treatment-figures-by-machine: by=machine', customerId: a.customerId },
        { resource: 'EXPORT treatment-figures-by-machine 2 rows: by=machine', customerId: a.customerId },
      ]),
    );
    const weeks = await get(data.b.token, `${paths.figuresExport}?by=week`);
    expect(weeks.body).toContain('Week starting,Treatments,Minutes');
    expect(weeks.body).not.toContain(machines.kept.machineNumber);
  });
});

describe("a clinic's monthly usage", () => {
  it('gives each machine held in the month its treatments, minutes and days used, and only the clinic’s', async () => {
    const { a, b, machines } = data;
    const month = t.clock.now.toISOString().slice(0, 7);
    const ofA = json<UsageReport>(await get(a.token, `${paths.usage}?month=${month}`));
    const kept = ofA.machines.find((m) => m.deviceId === machines.kept.deviceId);
    expect(kept).toMatchObject({ label: machines.kept.machineNumber, current: true });
    expect(ofA.machines.map((m) => m.deviceId)).not.toContain(machines.own.deviceId);
    const ofB = json<UsageReport>(await get(b.token, `${paths.usage}?month=${month}`));
    expect(ofB.machines.map((m) => m.deviceId).sort()).toEqual(
      [machines.moved.deviceId, machines.own.deviceId].sort(),
    );
    const csv = await get(b.token, `${paths.usageExport}?month=${month}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Month,Machine,Serial number,Held now,Treatments,Minutes,Days used');
    expect(csv.body).toContain(
      `${month},${machines.own.machineNumber},${machines.own.serialNumber},yes,5,50,1`,
    );
    expect(csv.body).not.toContain(machines.kept.machineNumber);
    const bad = await get(a.token, `${paths.usage}?month=2026-1`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors[0]).toMatchObject({
      path: 'month',
      message: clinicPortalMessages.monthInvalid,
    });
  });
});

describe("a clinic's billing", () => {
  it('lists only its own subscriptions, each with its payments and what it may do', async () => {
    const { a, b } = data;
    const ofA = json<ClinicSubscriptions>(await get(a.token, paths.subscriptions));
    expect(ofA.subscriptions.map((s) => s._id)).toEqual([a.subscriptionId]);
    expect(ofA.subscriptions[0]).toMatchObject({
      status: 2,
      isRecurring: true,
      planType: 'month',
      payUrl: null,
      canRetry: false,
      canUpdateCard: true,
      payments: [{ _id: a.paymentId, amount: 49, provider: 'demo' }],
    });
    const ofB = json<ClinicSubscriptions>(await get(b.token, paths.subscriptions));
    expect(ofB.subscriptions.map((s) => s._id)).toEqual([b.subscriptionId]);
  });

  it("gives its own payment's receipt, and another clinic's as not found", async () => {
    const { a, b } = data;
    const own = await get(a.token, paths.receipt(a.subscriptionId, a.paymentId));
    expect(own.statusCode, own.body).toBe(200);
    expect(json<{ url: string }>(own).url).toBe(
      `${t.config.publicUrl}${subscriptionOperationPaths.demoReceipt(a.paymentId)}`,
    );
    for (const url of [
      paths.receipt(b.subscriptionId, b.paymentId),
      paths.receipt(a.subscriptionId, b.paymentId),
    ]) {
      const res = await get(a.token, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().msg).toBe(clinicPortalMessages.subscriptionNotFound);
    }
  });

  it("takes a new demo card for its own plan, audited with the clinic; another's is not found", async () => {
    const { a, b } = data;
    const opened = await t.injectAs(a.token, { method: 'POST', url: paths.cardUpdate(a.subscriptionId) });
    expect(opened.statusCode, opened.body).toBe(200);
    // The demo provider has no page of its own: the portal's form sends the card.
    expect(opened.json()).toMatchObject({ data: { url: null }, msg: clinicPortalMessages.cardUpdateDemo });
    const card = { cardNumber: '4000 0566 5566 5556', expiry: '12/49', cvc: '123' };
    const res = await t.injectAs(a.token, {
      method: 'POST',
      url: paths.demoCard(a.subscriptionId),
      payload: card,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { cardLast4: '5556' }, msg: clinicPortalMessages.cardUpdated });
    const listed = json<ClinicSubscriptions>(await get(a.token, paths.subscriptions));
    expect(listed.subscriptions[0]!.cardLast4).toBe('5556');
    const rows = await t.database.db
      .select({ customerId: accessLogs.customerId, recordId: accessLogs.recordId })
      .from(accessLogs)
      .where(and(eq(accessLogs.userId, a.userId), eq(accessLogs.resource, `POST ${paths.demoCard(':id')}`)));
    expect(rows).toEqual([{ customerId: a.customerId, recordId: a.subscriptionId }]);
    const bad = await t.injectAs(a.token, {
      method: 'POST',
      url: paths.demoCard(a.subscriptionId),
      payload: { ...card, cardNumber: '1234' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors[0].path).toBe('cardNumber');
    for (const [url, payload] of [
      [paths.cardUpdate(b.subscriptionId), undefined],
      [paths.retry(b.subscriptionId), undefined],
      [paths.demoCard(b.subscriptionId), card],
    ] as const) {
      const other = await t.injectAs(a.token, { method: 'POST', url, payload });
      expect(other.statusCode, url).toBe(404);
    }
  });

  it('refuses to retry a plan with nothing to pay (409), and pays a failed renewal', async () => {
    const { a } = data;
    const nothing = await t.injectAs(a.token, { method: 'POST', url: paths.retry(a.subscriptionId) });
    expect(nothing.statusCode).toBe(409);
    await t.database.db.execute(
      // A renewal that failed: the plan's paid period ended and the provider refused the card.
      sql`update subscriptions set renewal_failed_at = now(), last_payment_error = 'Card declined'
        where id = ${a.subscriptionId}`,
    );
    const listed = json<ClinicSubscriptions>(await get(a.token, paths.subscriptions));
    expect(listed.subscriptions[0]!.canRetry).toBe(true);
    const paid = await t.injectAs(a.token, { method: 'POST', url: paths.retry(a.subscriptionId) });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ data: { paid: true }, msg: clinicPortalMessages.retried });
    const after = json<ClinicSubscriptions>(await get(a.token, paths.subscriptions));
    expect(after.subscriptions[0]!.payments).toHaveLength(2);
  });
});

describe('the audit trail in words', () => {
  it("has words for every route of the portal's pages", () => {
    const routes = t.app.registeredRoutes.filter((r) =>
      /^\/api\/v1\/clinic\/(machines|figures|subscriptions|usage)/.test(r.url),
    );
    expect(routes).toHaveLength(10);
    const missing = routes.filter(
      (r) => !logInWords({ resource: `${r.method} ${r.url}`, machineNumber: null }),
    );
    expect(missing).toEqual([]);
  });
});
