import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  commandIsDisruptive,
  commandMessages,
  commandPaths,
  type Command,
  type CommandKind,
} from '@app/contract/commands';
import type { AdminClient } from '@app/fleet-simulator/admin-client';
import { busyMessage } from '@app/fleet-simulator/commands';
import { summaryLine } from '@app/fleet-simulator/fleet';
import type { SimMachine } from '@app/fleet-simulator/machine';
import { flushCheckIns } from '#api/test/device-fixtures.ts';
import { simulatedFleet } from '#api/test/sim-machines.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * The fleet simulator runs every command kind as the app does (issue 37 item 6; docs/device-api.md
 * §4c): simulated machines (tools/fleet-simulator) against the real app listening on a port, over
 * real HTTP. An admin sends commands through the console's route; the machines take them from the
 * heartbeat's answer or the long-poll, run each once by its id, and report.
 */

let t: TestApp;
let admin: AdminClient;
let token: string;
let provision: Awaited<ReturnType<typeof simulatedFleet>>['provision'];

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provision } = await simulatedFleet(t, 'cmd'));
  token = await t.login();
}, 60_000);
afterAll(() => t?.close());

/** A machine added in the console, enrolled, checked in and with its people signed in. */
const provisionedMachine = (options: { commandFailShare?: number; codes?: boolean } = {}) =>
  provision({
    commandFailShare: options.commandFailShare ?? 0,
    // As the fleet does: the technician gets a new code through the console's API.
    enrolmentCode:
      options.codes === false ? undefined : async (id) => (await admin.issueEnrolmentCode(id)).code,
  });

/** An admin sends the machine a command (a disruptive kind after a step-up, as the console asks). */
async function send(deviceId: string, body: { kind: CommandKind; params?: object; ttlMinutes?: number }) {
  if (commandIsDisruptive(body.kind)) await t.stepUp(token);
  const res = await t.injectAs(token, {
    method: 'POST',
    url: commandPaths.deviceCommands(deviceId),
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: Command }).data;
}

const read = async (id: string): Promise<Command> =>
  (await t.injectAs(token, { method: 'GET', url: commandPaths.command(id) })).json().data;

/** Checks in until the command has run and been reported (a new command's notice takes a moment). */
async function heartbeatUntilDone(machine: SimMachine, id: string) {
  await vi.waitFor(
    async () => {
      await machine.heartbeat();
      expect(['succeeded', 'failed']).toContain((await read(id)).state);
    },
    { timeout: 5_000, interval: 100 },
  );
  return read(id);
}

const treatments = async (machineNumber: string) => (await admin.treatments(machineNumber, 1, 1)).total;
/** The error logs the console shows for the machine, with their messages. */
const errorMessages = async (machineNumber: string) =>
  (await admin.appErrorLogs(machineNumber)).map((row) => ('message' in row ? row.message : null));

describe('a simulated machine runs the commands an admin sends', () => {
  it('sends what it holds at once on sync-now, and says how many items', async () => {
    const { machine, device } = await provisionedMachine();
    await machine.record(t.clock.now);
    await machine.record(t.clock.now);
    const held = machine.backlog;
    expect(held).toBeGreaterThan(0);

    const command = await send(device._id, { kind: 'sync-now' });
    expect(await heartbeatUntilDone(machine, command._id)).toMatchObject({
      state: 'succeeded',
      message: `synced ${held} items`,
    });
    expect(machine.backlog).toBe(0);
    expect(await treatments(device.machineNumber)).toBe(2);
    expect(machine.ledger.surprises).toEqual([]);
  });

  it('takes a command from the long-poll while it waits between turns', async () => {
    const { machine, device } = await provisionedMachine();
    await machine.record(t.clock.now);
    const waiting = machine.waitForCommands(3_000);
    await vi.waitFor(() => expect(t.app.commandInbox.waiting).toBeGreaterThan(0));
    const command = await send(device._id, { kind: 'sync-now' });
    await waiting;
    expect((await read(command._id)).state).toBe('succeeded');
    expect(machine.heartbeats).toBe(1);
    expect(machine.backlog).toBe(0);
  });

  it('uploads a gzip file of its recent log lines and state on upload-diagnostics, which the admin downloads', async () => {
    const { machine, device } = await provisionedMachine();
    await machine.record(t.clock.now);
    await machine.sync();

    const command = await send(device._id, { kind: 'upload-diagnostics', params: { minutes: 30 } });
    const done = await heartbeatUntilDone(machine, command._id);
    expect(done).toMatchObject({ state: 'succeeded', diagnostics: { size: expect.any(Number) } });
    expect(done.message).toMatch(/^uploaded \d+ log lines/);

    const res = await t.injectAs(token, { method: 'GET', url: commandPaths.diagnostics(command._id) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    const text = gunzipSync(res.rawPayload).toString('utf8');
    expect(text).toMatch(/^# diagnostics: the app's log of the last 30 minutes/);
    // Its log lines: the doctors registered, the treatment, the sync, and this command starting.
    expect(text).toMatch(/Z technician tech-cmd-\S+ registered \d doctors/);
    expect(text).toMatch(/Z treatment \S+ by /);
    expect(text).toMatch(/Z sync: \d+ sent, 0 kept/);
    expect(text).toContain(`command ${command._id} (upload-diagnostics) started`);
    // And its state.
    const state = JSON.parse(text.slice(text.indexOf('# state') + '# state'.length));
    expect(state).toMatchObject({
      machineNumber: device.machineNumber,
      deviceId: device._id,
      enrolled: true,
      hold: null,
      licence: { state: 'unlicensed', locked: false },
    });
  });

  it('refuses to start treatments on safety hold, logging the reason, across a restart, until release-hold', async () => {
    const { machine, device } = await provisionedMachine();
    await machine.record(t.clock.now);
    await machine.sync();
    const treated = await treatments(device.machineNumber);
    const reason = 'Field safety notice 12';

    const hold = await send(device._id, { kind: 'safety-hold', params: { reason } });
    expect(await heartbeatUntilDone(machine, hold._id)).toMatchObject({ state: 'succeeded' });
    expect(machine.hold).toBe(reason);
    await machine.record(t.clock.now);
    expect(machine.heldStarts).toBe(1);

    // A restart waits for the treatment of the first stretch to end (its heartbeats say busy)...
    const sessionBefore = machine.doctors[0]!.session.accessToken;
    const restart = await send(device._id, { kind: 'restart-app' });
    expect(machine.busy).toBe(true);
    for (let i = 0; i < 5; i++) await machine.heartbeat();
    await flushCheckIns(t);
    expect(await read(restart._id)).toMatchObject({ state: 'queued', waiting: 'treatment' });
    expect(machine.restarts).toBe(0);
    // ...and keeps the hold once it runs: the app keeps it on its disk.
    t.clock.advance(60_000);
    expect(machine.busy).toBe(false);
    expect(await heartbeatUntilDone(machine, restart._id)).toMatchObject({ state: 'succeeded' });
    expect(machine.restarts).toBe(1);
    expect(machine.doctors[0]!.session.accessToken).not.toBe(sessionBefore);
    await machine.record(t.clock.now);
    expect(machine.heldStarts).toBe(2);
    expect(await machine.sync()).toBe(0);
    expect(await treatments(device.machineNumber)).toBe(treated);
    await vi.waitFor(async () =>
      expect(await errorMessages(device.machineNumber)).toContain(commandMessages.refusedOnHold(reason)),
    );

    const release = await send(device._id, { kind: 'release-hold' });
    expect(await heartbeatUntilDone(machine, release._id)).toMatchObject({
      state: 'succeeded',
      message: 'hold released',
    });
    await machine.record(t.clock.now);
    expect(machine.heldStarts).toBe(2);
    expect(await machine.sync()).toBe(0);
    expect(await treatments(device.machineNumber)).toBe(treated + 1);
    expect(machine.ledger.surprises).toEqual([]);
  });

  it('runs a command handed over again once, and reports its result again', async () => {
    const { machine, device } = await provisionedMachine();
    await machine.record(t.clock.now);
    const held = machine.backlog;
    // The first report never reaches the server (the connection drops), so the next call hands the
    // command over again.
    const report = machine.client.reportCommand.bind(machine.client);
    let drops = 1;
    machine.client.reportCommand = async (id, result) => {
      if (drops-- > 0) throw new Error('connection reset');
      return report(id, result);
    };
    const command = await send(device._id, { kind: 'sync-now' });
    await vi.waitFor(
      async () => {
        await machine.heartbeat();
        expect(machine.commands.run).toBe(1);
      },
      { timeout: 5_000, interval: 100 },
    );
    await vi.waitFor(async () => expect((await read(command._id)).state).toBe('delivered'));
    expect(machine.ledger.surprises.splice(0)).toEqual([`${machine.label} commands: connection reset`]);

    await machine.heartbeat();
    expect(await read(command._id)).toMatchObject({ state: 'succeeded', message: `synced ${held} items` });
    expect(machine.commands.run).toBe(1);
    expect(machine.commands.reportedAgain).toBe(1);
    // And once reported, nothing is handed over again.
    await machine.heartbeat();
    expect(machine.commands.reportedAgain).toBe(1);
  });

  it('enrols again on re-enrol with a new code from the console, and its people sign in again', async () => {
    const { machine, device } = await provisionedMachine();
    const before = machine.client.credential;
    const command = await send(device._id, { kind: 're-enrol' });
    expect(await heartbeatUntilDone(machine, command._id)).toMatchObject({ state: 'succeeded' });
    expect(machine.client.credential).not.toBe(before);
    expect(machine.enrolled).toBe(true);
    await machine.record(t.clock.now);
    expect(await machine.sync()).toBe(0);
    expect(await treatments(device.machineNumber)).toBe(1);
    expect(machine.ledger.surprises).toEqual([]);
  });

  it('waits for a code after re-enrol when it has no admin to ask, and enrols with one typed in', async () => {
    const { machine, device } = await provisionedMachine({ codes: false });
    const command = await send(device._id, { kind: 're-enrol' });
    expect(await heartbeatUntilDone(machine, command._id)).toMatchObject({ state: 'succeeded' });
    expect(machine.enrolled).toBe(false);
    expect(machine.appLog.since(1).join('\n')).toContain('credential dropped: waiting for an enrolment code');
    // It keeps recording, and sends nothing until enrolled again.
    await machine.record(t.clock.now);
    expect(await machine.sync()).toBe(machine.backlog);

    await machine.enrolWith((await admin.issueEnrolmentCode(device._id)).code);
    expect(await machine.sync()).toBe(0);
    expect(await treatments(device.machineNumber)).toBe(1);
    expect(machine.ledger.surprises).toEqual([]);
  });

  it('fails a non-disruptive command now and then with a message, and counts it', async () => {
    const { machine, device } = await provisionedMachine({ commandFailShare: 1 });
    const command = await send(device._id, { kind: 'sync-now' });
    expect(await heartbeatUntilDone(machine, command._id)).toMatchObject({
      state: 'failed',
      message: busyMessage,
    });
    // A disruptive one is never failed on purpose.
    const hold = await send(device._id, { kind: 'safety-hold', params: { reason: 'check' } });
    expect(await heartbeatUntilDone(machine, hold._id)).toMatchObject({ state: 'succeeded' });
    expect(machine.commands).toMatchObject({ run: 2, failed: 1 });
    expect(
      summaryLine({
        devices: 1,
        accepted: 3,
        refused: 0,
        refusedMeant: 0,
        duplicates: 0,
        commandsRun: 2,
        commandsFailed: 1,
      }),
    ).toBe('simulated 1 devices: 3 records accepted, 0 refused, 0 duplicates; 2 commands run, 1 failed');
  });

  it('never starts a command past its expiresAt on its own clock', async () => {
    const { machine, device } = await provisionedMachine();
    await send(device._id, { kind: 'sync-now', ttlMinutes: 1 });
    let handed: Awaited<ReturnType<typeof machine.client.pollCommands>> = [];
    await vi.waitFor(async () => {
      handed = await machine.client.pollCommands(0);
      expect(handed).toHaveLength(1);
    });
    // Handed over, then the machine's clock passes its expiry before it gets to it.
    t.clock.advance(61_000);
    await machine.commands.take(handed);
    expect(machine.commands.run).toBe(0);
  });
});
