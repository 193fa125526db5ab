import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { consolePhone } from '@app/fake-data/people';
import { fakeClinic } from '@app/fake-data/places';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { seededRandom } from '@app/fleet-simulator/fake-data';
import { SimMachine } from '@app/fleet-simulator/machine';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';
import { ownServerUrl, startOwnServer, type OwnServer } from './support/own-server.ts';
import { addSubscriptionInConsole, payAsCustomer } from './support/subscriptions.ts';

/*
 * Issue 34 "Done when": a subscription governs its machine. An admin creates a subscription for
 * machine X; the customer pays with the demo card; X's simulated app (the fleet simulator's machine,
 * a real HTTP client of the device API) gets an active licence; time passes the paid-through date:
 * X is in grace (an alarm, a reminder mail), then lapsed, and the simulated app refuses to start a
 * treatment; the admin extends it with a reason: active again on the next heartbeat. Machine Y of
 * the same customer, paid for a year, is untouched throughout.
 *
 * A server of its own with the movable clock (CLOCK_CONTROL=1): moving it runs every periodic job
 * at the new time. A one-time payment licenses 20 days here (LICENCE_ONE_TIME_DAYS) and grace is 5
 * days (LICENCE_GRACE_DAYS), so the whole story fits in 27 days: within the 30 days of the machines'
 * app sessions, whose people are not all at work every day. The admin signs in again after each move.
 */
const portOffset = 60;
const baseURL = ownServerUrl(portOffset);

test.describe.configure({ mode: 'serial', timeout: 420_000 });
test.use({ baseURL });

let server: OwnServer | undefined;
let admin: AdminClient;
/** How far the server's clock runs ahead of ours: the simulated machines read the same time. */
let clockAhead = 0;
const serverNow = () => new Date(Date.now() + clockAhead);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({
    name: 'licence',
    portOffset,
    admin: e2eAdmin,
    env: {
      CLOCK_CONTROL: '1',
      LICENCE_ONE_TIME_DAYS: '20',
      LICENCE_GRACE_DAYS: '5',
      // The step-up prompt is part of the extension this spec walks through.
      SIGN_IN_STEP_UP: '0',
    },
  });
  admin = new AdminClient({ baseUrl: baseURL }, e2eAdmin.email, e2eAdmin.password);
  await admin.signIn();
});
test.afterAll(() => server?.stop());

/** Moves the server's clock forward by `days` (its jobs run at the new time). */
async function moveClock(days: number) {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const login = await post('/api/v1/admin/login', e2eAdmin);
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  const moved = await post('/api/v1/admin/clock', { days }, token);
  expect(moved.status, await moved.clone().text()).toBe(200);
  clockAhead = Date.parse(((await moved.json()) as { data: { now: string } }).data.now) - Date.now();
}

const run = randomBytes(3).toString('hex');
/** A machine added in the console, enrolled, checked in and with a technician signed in on it. */
async function provisionedMachine(label: string, roleId: { _id: string; roleId: number }) {
  const random = seededRandom(label.length + 34);
  const machine = new SimMachine(`${run}-${label}`, {
    http: { baseUrl: baseURL },
    random,
    resendShare: 0,
    badShare: 0,
    images: () => [],
    now: serverNow,
  });
  const device = await admin.addDevice({
    machineNumber: `LIC-${label}-${run}`,
    serialNumber: `SN-LIC-${label}-${run}`,
    ...fakeClinic(random, machine.place),
    city: machine.place.city,
    country: machine.place.country,
  });
  await machine.client.enrol((await admin.issueEnrolmentCode(device._id)).code);
  const technician = { userName: `tech-${label}-${run}`, password: `Tech-${randomBytes(6).toString('hex')}` };
  await admin.addTechnician(roleId._id, [device._id], technician, { phone: consolePhone(random) });
  await machine.heartbeat();
  await machine.setUpPeople(technician, roleId.roleId);
  return { machine, device };
}

/**
 * The machine in use for a while: a heartbeat, people registering and treating, and all of it sent.
 * Between the clock's moves this keeps its people's app sessions (30 days, sliding) alive, as a
 * machine in daily use does. Answers how many treatment starts its licence refused meanwhile.
 */
async function inUse(machine: SimMachine) {
  const refusedBefore = machine.refusedStarts;
  await machine.heartbeat();
  await machine.record(serverNow());
  expect(await machine.sync(), machine.ledger.surprises.join('\n')).toBe(0);
  return machine.refusedStarts - refusedBefore;
}

/** Heartbeats until the machine holds a licence in `state` (one heartbeat names the new version). */
async function heartbeatUntil(machine: SimMachine, state: string) {
  await expect
    .poll(
      async () => {
        await machine.heartbeat();
        return machine.licence.claims?.state;
      },
      { timeout: 15_000, intervals: [200] },
    )
    .toBe(state);
}

/** Whether Device Management, filtered by the Licence facet, lists the machine in that state. */
async function expectListedAs(page: Page, machineNumber: string, licence: string) {
  await page.goto(`/admin/device?search=${encodeURIComponent(machineNumber)}&licence=${licence}`);
  await expect(page.getByRole('row').filter({ hasText: machineNumber })).toHaveCount(1);
}

test('a paid machine runs; past its paid-through date it goes to grace, then lapses and refuses treatments; extended, it runs again', async ({
  page,
  browser,
}) => {
  const role = await admin.createAppRole(`Licence technicians ${run}`);
  const x = await provisionedMachine('X', role);
  const y = await provisionedMachine('Y', role);
  const customer = { fullName: `Clinic Owner ${run}`, email: `owner-${run}@example.com` };

  // The admin creates both subscriptions; the customer pays each with the demo card.
  await signIn(page);
  const subX = await addSubscriptionInConsole(page, {
    ...customer,
    serial: x.device.serialNumber,
    recurring: false,
  });
  const subY = await addSubscriptionInConsole(page, {
    ...customer,
    serial: y.device.serialNumber,
    recurring: true,
  });
  await payAsCustomer(browser, subX.link);
  await payAsCustomer(browser, subY.link);

  // X's app gets an active licence on its next heartbeat, and treats.
  await heartbeatUntil(x.machine, 'active');
  await heartbeatUntil(y.machine, 'active');
  expect(await inUse(x.machine)).toBe(0);

  // 7 + 10 days: the reminders before the paid-through date go out (LICENCE_REMINDER_DAYS 14 and 3).
  await moveClock(7);
  expect(await inUse(x.machine)).toBe(0);
  expect(await inUse(y.machine)).toBe(0);
  await moveClock(10);
  expect(await inUse(x.machine)).toBe(0);
  expect(await inUse(y.machine)).toBe(0);
  // 4 more: past X's 20 paid days, X is in grace; Y, paid for a year, is active.
  await moveClock(4);
  await heartbeatUntil(x.machine, 'grace');
  await heartbeatUntil(y.machine, 'active');
  expect(x.machine.licence.claims?.locked).toBe(false);
  // In grace the machine still treats.
  expect(await inUse(x.machine)).toBe(0);

  // The console: X in grace, Y active, an alarm for X, and the reminder mails in the Outbox.
  await signIn(page);
  await expectListedAs(page, x.device.machineNumber, 'grace');
  await expectListedAs(page, y.device.machineNumber, 'active');
  await page.goto('/admin/alarms');
  // (The machines were quiet for days between the clock's moves: offline alarms may stand beside it.)
  const graceAlarm = (machineNumber: string) =>
    page.getByRole('row').filter({ hasText: machineNumber }).filter({ hasText: 'Licence in grace' });
  await expect(graceAlarm(x.device.machineNumber)).toHaveCount(1);
  await expect(graceAlarm(y.device.machineNumber)).toHaveCount(0);
  await expectAccessible(page);
  await page.goto('/admin/outbox');
  await expect(page.getByRole('row').filter({ hasText: customer.email }).first()).toBeVisible();
  const outboxRows = await page.getByRole('row').filter({ hasText: customer.email }).count();
  // The two payment links and at least the 14- and 3-day reminders.
  expect(outboxRows).toBeGreaterThanOrEqual(4);

  // 6 more days: past the grace period, X lapses; its app refuses a new treatment and says why.
  await moveClock(6);
  await heartbeatUntil(x.machine, 'lapsed');
  await heartbeatUntil(y.machine, 'active');
  expect(x.machine.licence.claims?.locked).toBe(true);
  // Records and logs are still sent (the refusal among the error logs); a treatment is not started.
  expect(await inUse(x.machine)).toBe(1);
  expect(await inUse(y.machine)).toBe(0);

  // The admin extends X's subscription by a month, with a reason, signed (decision 083).
  await signIn(page);
  await page.goto(`/admin/view-subscription/${subX._id}`);
  await page.getByRole('button', { name: 'Extend paid-through date' }).click();
  const extend = page.getByRole('dialog', { name: 'Extend paid-through date' });
  const until = serverNow();
  until.setUTCDate(until.getUTCDate() + 30);
  await extend.getByLabel('New paid-through date').fill(until.toISOString().slice(0, 10));
  await extend.getByLabel('Reason').fill('Paid by bank transfer');
  await extend.getByRole('combobox', { name: 'Meaning' }).selectOption('responsibility');
  await extend.getByLabel('Your password').fill(e2eAdmin.password);
  await extend.getByRole('button', { name: 'Extend' }).click();
  await expect(extend).toBeHidden();
  await expect(page.getByText('Paid by bank transfer').first()).toBeVisible();

  // Active again on X's next heartbeat, and it treats; Y never changed.
  await heartbeatUntil(x.machine, 'active');
  expect(await inUse(x.machine)).toBe(0);
  await expectListedAs(page, x.device.machineNumber, 'active');
  await expectListedAs(page, y.device.machineNumber, 'active');
  expect(x.machine.ledger.surprises).toEqual([]);
  expect(y.machine.ledger.surprises).toEqual([]);
});
