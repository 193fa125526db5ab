import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceMessages } from '@app/contract/licences';
import type { AdminClient } from '@app/fleet-simulator/admin-client';
import type { SimMachine } from '@app/fleet-simulator/machine';
import { simulatedFleet } from '#api/test/sim-machines.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { subscriptionRequests } from '../subscriptions/subscription-test-requests.ts';

/*
 * The machine obeys its licence, offline too (issue 34 item 3; docs/device-api.md, "Licence"): a
 * simulated machine (tools/fleet-simulator) against the real app listening on a port, over real
 * HTTP. It verifies each licence with the published keys alone, refuses to start a treatment when
 * its licence locks it or is older than its offline validity, logs the refusal with its reason as an
 * error log, and lets a treatment started before finish. Its clock is the app's test clock.
 *
 * A one-time payment licenses a day here and grace is a day, so the machine lapses two days after
 * it is paid: its people's sessions (30 days, sliding) outlive the jump.
 */

const day = 86_400_000;
let t: TestApp;
let admin: AdminClient;
let token: string;
/** A machine added in the console, enrolled, checked in (it fetches its licence) and with its people signed in. */
let provisionedMachine: Awaited<ReturnType<typeof simulatedFleet>>['provision'];

beforeAll(async () => {
  t = await createTestApp({ LICENCE_ONE_TIME_DAYS: '1', LICENCE_GRACE_DAYS: '1' });
  ({ admin, provision: provisionedMachine } = await simulatedFleet(t, 'lic'));
  token = await t.login();
}, 60_000);
afterAll(() => t?.close());

const { add, checkout, pay } = subscriptionRequests(() => ({ t, token }));

/** The machine's licence as it holds it after checking in until it holds `state` (a notice may take a moment). */
async function heartbeatUntil(machine: SimMachine, state: string) {
  await expect
    .poll(
      async () => {
        await machine.heartbeat();
        return machine.licence.claims?.state;
      },
      { timeout: 5000, interval: 100 },
    )
    .toBe(state);
  return machine.licence.claims!;
}

/** The error logs the console shows for the machine, with their messages. */
const errorMessages = async (machineNumber: string) =>
  (await admin.appErrorLogs(machineNumber)).map((row) => ('message' in row ? row.message : null));

describe('a simulated machine obeys its licence', () => {
  it('treats while its licence is active; once lapsed it refuses a new treatment and logs why, and the one started before finishes', async () => {
    const { machine, device } = await provisionedMachine();
    expect(machine.licence.claims).toMatchObject({
      state: 'unlicensed',
      locked: false,
      sub: device.serialNumber,
    });

    // The clinic pays: the next heartbeat names a newer version, and the machine fetches it.
    const created = await add({
      fullName: 'Clinic Owner',
      email: 'owner@example.test',
      machineSerialNumber: device.serialNumber,
      amount: 99,
      isRecurring: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data._id as string;
    expect((await pay(id, (await checkout(id)).json().data.clientSecret)).statusCode).toBe(200);
    const active = await heartbeatUntil(machine, 'active');
    expect(active.locked).toBe(false);

    await machine.record(t.clock.now);
    expect(machine.refusedStarts).toBe(0);
    expect(await machine.sync()).toBe(0);
    const treated = (await admin.treatments(device.machineNumber, 1, 1)).total;
    expect(treated).toBe(1);
    // Started while licensed, not yet sent when the licence locks the machine.
    await machine.record(t.clock.now);
    expect(machine.refusedStarts).toBe(0);

    // Past the paid day and the day of grace: the sweep lapses it, and one heartbeat tells the machine.
    t.clock.advance(2 * day + 60_000);
    await t.app.licences.sweep();
    token = await t.login();
    const lapsed = await heartbeatUntil(machine, 'lapsed');
    expect(lapsed).toMatchObject({ locked: true, enforcement: 'lapsed', ver: expect.any(Number) });
    expect(lapsed.ver).toBeGreaterThan(active.ver);

    await machine.record(t.clock.now);
    expect(machine.refusedStarts).toBe(1);
    expect(await machine.sync()).toBe(0);
    expect(machine.ledger.surprises).toEqual([]);
    // The treatment started before the lock was sent and kept; none was started after it.
    expect((await admin.treatments(device.machineNumber, 1, 1)).total).toBe(treated + 1);
    expect(await errorMessages(device.machineNumber)).toContain(licenceMessages.refusedLocked('lapsed'));
  });

  it('refuses a treatment once its last licence is older than its offline validity, and treats again when back online', async () => {
    const { machine, device } = await provisionedMachine();
    // Unlicensed: flagged, not locked under the default enforcement.
    expect(machine.licence.claims).toMatchObject({ state: 'unlicensed', locked: false });
    await machine.record(t.clock.now);
    expect(machine.refusedStarts).toBe(0);
    expect(await machine.sync()).toBe(0);

    // Offline for the offline validity (LICENCE_OFFLINE_DAYS, 7): it checks in with nobody.
    machine.online = false;
    t.clock.advance(7 * day - 60_000);
    await machine.record(t.clock.now);
    expect(machine.refusedStarts).toBe(0);
    t.clock.advance(60_000);
    await machine.record(t.clock.now);
    expect(machine.refusedStarts).toBe(1);

    // Back online: the first heartbeat fetches a fresh licence, and treatments start again.
    machine.online = true;
    await machine.heartbeat();
    expect(machine.licence.claims!.iat).toBe(Math.floor(t.clock.now.getTime() / 1000));
    await machine.record(t.clock.now);
    expect(machine.refusedStarts).toBe(1);
    expect(await machine.sync()).toBe(0);
    expect(machine.ledger.surprises).toEqual([]);
    expect(await errorMessages(device.machineNumber)).toContain(licenceMessages.refusedStale);
  });

  it('keeps the licence it holds when offered one that fails verification, and says why', async () => {
    const { machine } = await provisionedMachine();
    const held = machine.licence.token!;
    const [header, payload, signature] = held.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, state: 'exempt' })).toString('base64url');
    const why = await machine.licence.accept([header, altered, signature].join('.'));
    expect(why).toMatch(new RegExp(`^${licenceMessages.tokenRejected}`));
    expect(machine.licence.token).toBe(held);
    expect(machine.licence.claims!.state).toBe('unlicensed');
  });
});
