import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licencePaths } from '@app/contract/licences';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { machineWithSerial, subscriptionRequests } from '../subscriptions/subscription-test-requests.ts';
import { clockControlPath } from './clock-control-module.ts';

/*
 * The e2e tests' movable clock (CLOCK_CONTROL=1): moving it runs every periodic job at the new
 * time, so a paid-through date passing is seen at once; without the setting there is no such route.
 */

describe('without CLOCK_CONTROL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has no clock route', async () => {
    const token = await t.login();
    const res = await t.injectAs(token, { method: 'POST', url: clockControlPath, payload: { days: 1 } });
    expect(res.statusCode).toBe(404);
  });
});

describe('with CLOCK_CONTROL=1', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ CLOCK_CONTROL: '1' });
    token = await t.login();
  });
  afterAll(() => t.close());
  const { add, checkout, pay } = subscriptionRequests(() => ({ t, token }));

  it('refuses a move backwards or too far, naming the field, and a caller who is not signed in', async () => {
    for (const days of [0, -1, 4000, 'soon']) {
      const res = await t.injectAs(token, { method: 'POST', url: clockControlPath, payload: { days } });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toMatch(/days/);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: clockControlPath, payload: { days: 1 } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('moves the clock forward and runs the licence sweep at the new time: a paid month passes into grace', async () => {
    const deviceId = await machineWithSerial(t, 'SN-CLOCK-1');
    const created = await add({
      fullName: 'Clinic Owner',
      email: 'owner@example.test',
      machineSerialNumber: 'SN-CLOCK-1',
      amount: 50,
      isRecurring: true,
      planType: 'month',
    });
    const id = created.json().data._id as string;
    const { clientSecret } = (await checkout(id)).json().data;
    expect((await pay(id, clientSecret)).statusCode).toBe(200);
    const state = async () =>
      (await t.injectAs(token, { method: 'GET', url: licencePaths.deviceLicence(deviceId) })).json().data
        .state;
    expect(await state()).toBe('active');

    const before = (await t.injectAs(token, { method: 'GET', url: clockControlPath })).json().data.now;
    const moved = await t.injectAs(token, { method: 'POST', url: clockControlPath, payload: { days: 32 } });
    expect(moved.statusCode).toBe(200);
    expect(Date.parse(moved.json().data.now) - Date.parse(before)).toBeGreaterThanOrEqual(32 * 86_400_000);
    // The session ended a month ago by the new clock; no sweep was called by the test: the route ran it.
    token = await t.login();
    expect(await state()).toBe('grace');
  });
});
