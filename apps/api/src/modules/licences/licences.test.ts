import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceMessages, licencePaths } from '@app/contract/licences';
import { subscriptionMessages } from '@app/contract/subscriptions';
import { devices } from '#api/db/schema/devices.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { machineWithSerial, subscriptionRequests } from '../subscriptions/subscription-test-requests.ts';

/*
 * A licence per machine (issue 34 items 1-2, decision 068): a subscription belongs to a machine of
 * the fleet; its payments license that machine; the clock moves it to grace and then to lapsed; an
 * admin's exemption overrides; every change is in its history and the audit trail, with its cause.
 */

const day = 86_400_000;
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const { add, checkout, pay, rowOf } = subscriptionRequests(() => ({ t, token }));
const licenceOf = async (deviceId: string) =>
  (await t.injectAs(token, { method: 'GET', url: licencePaths.deviceLicence(deviceId) })).json().data;
const sweep = () => t.app.licences.sweep();
/** Time passes; the admin, whose session has ended meanwhile, signs in again. */
async function later(ms: number) {
  t.clock.advance(ms);
  token = await t.login();
}

let serial = 0;
/** A machine, and a subscription for it paid with the demo card: one-time, or monthly. */
async function paidMachine(over: { isRecurring?: boolean } = {}) {
  const serialNumber = `SN-LIC-${++serial}`;
  const deviceId = await machineWithSerial(t, serialNumber);
  const created = await add({
    fullName: 'Clinic Owner',
    email: 'owner@example.test',
    machineSerialNumber: serialNumber,
    amount: 99,
    isRecurring: over.isRecurring ?? true,
    ...(over.isRecurring === false ? {} : { planType: 'month' }),
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data._id as string;
  const { clientSecret } = (await checkout(id)).json().data;
  expect((await pay(id, clientSecret)).statusCode).toBe(200);
  return { deviceId, subscriptionId: id, serialNumber };
}

describe('a subscription belongs to a machine', () => {
  it('is linked to the machine its serial number names, in any case', async () => {
    const deviceId = await machineWithSerial(t, 'SN-LINK-1');
    const res = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/subscrption/add',
      payload: {
        fullName: 'A',
        email: 'a@example.test',
        machineSerialNumber: 'sn-link-1',
        amount: 5,
        isRecurring: false,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await rowOf(res.json().data._id)).deviceId).toBe(deviceId);
  });

  it('refuses a serial number that names no machine with a 400 naming the field, and saves nothing', async () => {
    const before = await t.database.db.$count(subscriptions);
    const res = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/subscrption/add',
      payload: {
        fullName: 'A',
        email: 'a@example.test',
        machineSerialNumber: 'NO-SUCH',
        amount: 5,
        isRecurring: false,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      msg: subscriptionMessages.machineNotFound,
      data: { errors: [{ path: 'machineSerialNumber' }] },
    });
    expect(await t.database.db.$count(subscriptions)).toBe(before);
  });
});

describe("a machine's licence", () => {
  it('is unlicensed without a paid subscription, and unlocked under the default enforcement', async () => {
    const deviceId = await machineWithSerial(t, 'SN-NEVER-PAID');
    expect(await licenceOf(deviceId)).toMatchObject({
      state: 'unlicensed',
      locked: false,
      paidThrough: null,
    });
  });

  it('turns active on payment, then grace past the paid-through date, then lapsed past the grace', async () => {
    const { deviceId } = await paidMachine();
    const paid = await licenceOf(deviceId);
    expect(paid).toMatchObject({ state: 'active', locked: false });
    const paidThrough = new Date(paid.paidThrough).getTime();
    expect(paidThrough).toBeGreaterThan(t.clock.now.getTime() + 27 * day);
    expect(new Date(paid.graceUntil).getTime()).toBe(paidThrough + 14 * day);
    expect(paid.events[0]).toMatchObject({ fromState: 'unlicensed', toState: 'active', cause: 'payment' });

    await later(paidThrough - t.clock.now.getTime() + 1000);
    await sweep();
    expect(await licenceOf(deviceId)).toMatchObject({ state: 'grace', locked: false });
    await later(14 * day);
    await sweep();
    const lapsed = await licenceOf(deviceId);
    expect(lapsed).toMatchObject({ state: 'lapsed', locked: true });
    expect(lapsed.events.map((e: { toState: string; cause: string }) => `${e.toState} ${e.cause}`)).toEqual([
      'lapsed expiry',
      'grace expiry',
      'active payment',
    ]);
    expect(lapsed.version).toBeGreaterThan(paid.version);
  });

  it('licenses a one-time payment for LICENCE_ONE_TIME_DAYS from the day it is paid', async () => {
    const { deviceId } = await paidMachine({ isRecurring: false });
    const licence = await licenceOf(deviceId);
    expect(licence.state).toBe('active');
    expect(new Date(licence.paidThrough).getTime()).toBe(t.clock.now.getTime() + 365 * day);
  });

  it('enters grace at once when a renewal fails, and leaves the machine of another subscription alone', async () => {
    const failing = await paidMachine();
    const other = await paidMachine();
    await t.database.db
      .update(subscriptions)
      .set({ renewalFailedAt: t.clock.now })
      .where(eq(subscriptions.id, failing.subscriptionId));
    await t.app.licences.recomputeDevice(failing.deviceId, 'webhook');
    expect((await licenceOf(failing.deviceId)).state).toBe('grace');
    expect((await licenceOf(other.deviceId)).state).toBe('active');
  });

  it('writes every change of state to the audit trail with the machine and its cause', async () => {
    const { deviceId, serialNumber } = await paidMachine();
    const rows = await t.database.db
      .select()
      .from(accessLogs)
      .where(and(eq(accessLogs.recordId, deviceId), like(accessLogs.resource, 'LICENCE %')));
    expect(rows.map((r) => r.resource)).toEqual([
      `LICENCE MN-${serialNumber}: unlicensed -> active (payment)`,
    ]);
    expect(rows[0]).toMatchObject({ recordKind: 'device', machineNumber: `MN-${serialNumber}` });
  });
});

describe("an admin's exemption", () => {
  const exempt = (deviceId: string, payload: object, as = token) =>
    t.injectAs(as, { method: 'PUT', url: licencePaths.deviceExemption(deviceId), payload });
  const until = (days: number) => new Date(t.clock.now.getTime() + days * day).toISOString().slice(0, 10);

  it('needs a step-up, then makes a lapsed machine exempt until the end of the day, with its reason', async () => {
    const deviceId = await machineWithSerial(t, 'SN-LOANER');
    const body = { kind: 'loaner', reason: 'Loaned while theirs is repaired', until: until(10) };
    expect((await exempt(deviceId, body, await t.loginWithoutStepUp())).json().data).toMatchObject({
      stepUpRequired: true,
    });
    await t.stepUp(token);
    const res = await exempt(deviceId, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      state: 'exempt',
      exemption: { kind: 'loaner', reason: 'Loaned while theirs is repaired', by: 'admin@example.com' },
    });
    expect(res.json().data.exemption.until).toBe(`${until(10)}T23:59:59.999Z`);
    expect(res.json().data.events[0]).toMatchObject({
      toState: 'exempt',
      cause: 'admin',
      actor: 'admin@example.com',
    });

    // Ends by itself after its day: the clock's sweep puts the machine back on its subscriptions.
    await later(11 * day);
    await sweep();
    expect(await licenceOf(deviceId)).toMatchObject({ state: 'unlicensed', exemption: null });
  });

  it('refuses a bad body naming the field, and a date that is not ahead', async () => {
    const deviceId = await machineWithSerial(t, 'SN-BAD-EXEMPT');
    await t.stepUp(token);
    const noReason = await exempt(deviceId, { kind: 'trial', reason: ' ', until: until(5) });
    expect([noReason.statusCode, noReason.json().msg]).toEqual([400, licenceMessages.reasonRequired]);
    const badKind = await exempt(deviceId, { kind: 'forever', reason: 'x', until: until(5) });
    expect(badKind.json().msg).toBe(licenceMessages.kindInvalid);
    const past = await exempt(deviceId, { kind: 'trial', reason: 'x', until: until(-1) });
    expect(past.json()).toMatchObject({
      code: 400,
      msg: licenceMessages.untilPast,
      data: { errors: [{ path: 'until' }] },
    });
    expect((await licenceOf(deviceId)).state).toBe('unlicensed');
  });

  it('ends early with a reason, and the machine follows its subscriptions again', async () => {
    const { deviceId } = await paidMachine();
    await t.stepUp(token);
    await exempt(deviceId, { kind: 'service', reason: 'Service visit', until: until(3) });
    expect((await licenceOf(deviceId)).state).toBe('exempt');
    const ended = await t.injectAs(token, {
      method: 'POST',
      url: `${licencePaths.deviceExemption(deviceId)}/end`,
      payload: { reason: 'Back from service' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await licenceOf(deviceId)).state).toBe('active');
    const again = await t.injectAs(token, {
      method: 'POST',
      url: `${licencePaths.deviceExemption(deviceId)}/end`,
      payload: { reason: 'Twice' },
    });
    expect([again.statusCode, again.json().msg]).toEqual([409, licenceMessages.noExemption]);
  });
});

describe('the sweeps', () => {
  it('changes nothing on a machine whose licence the clock has not touched', async () => {
    const { deviceId } = await paidMachine();
    const [before] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    await sweep();
    await t.app.licences.sweep(true);
    const [after] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(after!.licenceVersion).toBe(before!.licenceVersion);
  });
});
