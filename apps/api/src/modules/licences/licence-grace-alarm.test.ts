import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { licencePaths } from '@app/contract/licences';
import { apiPaths } from '@app/contract/paths';
import { devices } from '#api/db/schema/devices.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { machineWithSerial, subscriptionRequests } from '../subscriptions/subscription-test-requests.ts';

/*
 * Issue 34 item 4: a machine entering grace raises the "Licence in grace" alarm in the statement
 * that moves it there (the licence ledger), and leaving grace resolves it; the alarm checks hold
 * the same condition, so a machine in grace without an alarm gets one at the next check.
 */

const day = 86_400_000;
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const { add, checkout, pay } = subscriptionRequests(() => ({ t, token }));
async function later(ms: number) {
  t.clock.advance(ms);
  token = await t.login();
}
type Listed = {
  deviceId: string;
  rule: string;
  detail: Record<string, string>;
  openedAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
};
async function alarmsOf(deviceId: string, state: 'open' | 'past') {
  const res = await t.injectAs(token, {
    method: 'GET',
    url: apiPaths.alarms,
    query: { state, rule: 'licence-grace', limit: '100' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.alarms as Listed[]).filter((a) => a.deviceId === deviceId);
}
const openCount = async () =>
  (await t.injectAs(token, { method: 'GET', url: apiPaths.alarmsCount })).json().data.open as number;

let serial = 0;
async function paidMachine() {
  const serialNumber = `SN-GRACE-${++serial}`;
  const deviceId = await machineWithSerial(t, serialNumber);
  const created = await add({
    fullName: 'Clinic Owner',
    email: 'owner@example.test',
    machineSerialNumber: serialNumber,
    amount: 99,
    isRecurring: true,
    planType: 'month',
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data._id as string;
  const { clientSecret } = (await checkout(id)).json().data;
  expect((await pay(id, clientSecret)).statusCode).toBe(200);
  const licence = await t.injectAs(token, { method: 'GET', url: licencePaths.deviceLicence(deviceId) });
  return { deviceId, paidThrough: licence.json().data.paidThrough as string };
}

describe('the "Licence in grace" alarm', () => {
  it('opens when the clock moves a machine into grace, once, and resolves by itself when it lapses', async () => {
    const { deviceId, paidThrough } = await paidMachine();
    expect(await alarmsOf(deviceId, 'open')).toEqual([]);
    const before = await openCount();
    await later(Date.parse(paidThrough) - t.clock.now.getTime() + 1000);
    await t.app.licences.sweep();
    const [alarm] = await alarmsOf(deviceId, 'open');
    expect(alarm).toMatchObject({
      rule: 'licence-grace',
      openedAt: t.clock.now.toISOString(),
      detail: { paidThrough, graceUntil: new Date(Date.parse(paidThrough) + 14 * day).toISOString() },
    });
    expect(await openCount()).toBe(before + 1);
    // The next sweep and the alarm checks see the same machine in grace: still one alarm.
    await t.app.licences.sweep(true);
    expect((await t.app.alarmJobs.evaluate())['licence-grace'].opened).toBe(0);
    expect(await alarmsOf(deviceId, 'open')).toHaveLength(1);

    await later(14 * day);
    await t.app.licences.sweep();
    expect(await alarmsOf(deviceId, 'open')).toEqual([]);
    expect(await alarmsOf(deviceId, 'past')).toMatchObject([
      { resolvedAt: t.clock.now.toISOString(), resolvedBy: null },
    ]);
    expect(await openCount()).toBe(before);
  });

  it('opens at once when a failed renewal puts the machine in grace, and resolves when an admin exempts it', async () => {
    const { deviceId } = await paidMachine();
    await t.database.db
      .update(subscriptions)
      .set({ renewalFailedAt: t.clock.now })
      .where(eq(subscriptions.deviceId, deviceId));
    await t.app.licences.recomputeDevice(deviceId, 'webhook');
    expect(await alarmsOf(deviceId, 'open')).toHaveLength(1);

    const until = new Date(t.clock.now.getTime() + 30 * day).toISOString().slice(0, 10);
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: licencePaths.deviceExemption(deviceId),
      payload: { kind: 'service', reason: 'Card being replaced', until },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await alarmsOf(deviceId, 'open')).toEqual([]);
    expect(await alarmsOf(deviceId, 'past')).toHaveLength(1);
  });

  it('is opened by the alarm checks for a machine already in grace without one', async () => {
    const deviceId = await machineWithSerial(t, 'SN-GRACE-OLD');
    await t.database.db
      .update(devices)
      .set({ licenceState: 'grace', licenceGraceUntil: new Date(t.clock.now.getTime() + day) })
      .where(eq(devices.id, deviceId));
    expect((await t.app.alarmJobs.evaluate())['licence-grace'].opened).toBe(1);
    expect(await alarmsOf(deviceId, 'open')).toHaveLength(1);
  });

  it('is a rule the alarm list filters by, and a bad rule is a 400 naming the field', async () => {
    const res = await t.injectAs(token, { method: 'GET', url: apiPaths.alarms, query: { rule: 'unpaid' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(
      'rule must be one of offline, app-version, error-burst, revoked-calls, licence-grace',
    );
  });
});
