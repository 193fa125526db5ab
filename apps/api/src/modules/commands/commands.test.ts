import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandMessages, commandPaths, type AppCommand, type Command } from '@app/contract/commands';
import { apiPaths } from '@app/contract/paths';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { adminToken, deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Commands to machines (issue 37, decision 077), through the routes the console and the app call:
 * queued by an admin, handed over by the heartbeat or the long-poll, reported once by the machine.
 */

let t: TestApp;
let admin: string;
let machine: EnrolledDevice;
let other: EnrolledDevice;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminToken(t);
  machine = await enrolDevice(t);
  other = await enrolDevice(t);
});
afterAll(() => t.close());

const send = (deviceId: string, body: object, token = admin) =>
  t.injectAs(token, { method: 'POST', url: commandPaths.deviceCommands(deviceId), payload: body });
const sent = async (deviceId: string, body: object): Promise<Command> => {
  const res = await send(deviceId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};
const read = async (id: string): Promise<Command> => {
  const res = await t.injectAs(admin, { method: 'GET', url: commandPaths.command(id) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const heartbeat = async (d: EnrolledDevice): Promise<AppCommand[]> => {
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 42, versionName: '4.2.0' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.commands;
};
const poll = (d: EnrolledDevice, wait = 0) =>
  deviceInject(t, d.credential, { method: 'GET', url: `${commandPaths.appCommands}?wait=${wait}` });
const report = (d: EnrolledDevice, id: string, body: object) =>
  deviceInject(t, d.credential, { method: 'POST', url: commandPaths.appResult(id), payload: body });

/** Heartbeats until the machine gets something: the database's notice of a new command is async. */
const heartbeatUntil = async (d: EnrolledDevice) => {
  let got: AppCommand[] = [];
  await vi.waitFor(async () => {
    got = await heartbeat(d);
    expect(got.length).toBeGreaterThan(0);
  });
  return got;
};

describe('sending a command and the machine running it', () => {
  it('goes queued → delivered (heartbeat) → succeeded, handed again until reported, reported once', async () => {
    const command = await sent(machine.deviceId, { kind: 'sync-now' });
    expect(command).toMatchObject({
      kind: 'sync-now',
      state: 'queued',
      deviceId: machine.deviceId,
      machineNumber: machine.machineNumber,
      createdBy: 'admin@example.com',
      deliveredAt: null,
    });

    const handed = await heartbeatUntil(machine);
    expect(handed).toEqual([expect.objectContaining({ _id: command._id, kind: 'sync-now', params: {} })]);
    // Delivered is written behind the answer, within about 100 ms (delivery-marks.ts).
    await vi.waitFor(async () => expect((await read(command._id)).state).toBe('delivered'));
    // The answer may have been lost: the next call hands the same command again, by the same id.
    expect((await heartbeat(machine)).map((c) => c._id)).toEqual([command._id]);
    expect((await poll(machine)).json().data.commands.map((c: AppCommand) => c._id)).toEqual([command._id]);

    const first = await report(machine, command._id, { ok: true, message: 'synced 12 items' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.state).toBe('succeeded');
    // A retried report changes nothing, and says what the first one set.
    const again = await report(machine, command._id, { ok: false, message: 'late duplicate' });
    expect(again.json().data.state).toBe('succeeded');
    const done = await read(command._id);
    expect(done).toMatchObject({ state: 'succeeded', message: 'synced 12 items' });
    expect(done.finishedAt).not.toBeNull();
    expect(await heartbeat(machine)).toEqual([]);
  });

  it('records a failure with the app’s message', async () => {
    const command = await sent(machine.deviceId, { kind: 'upload-diagnostics', params: { minutes: 5 } });
    const [handed] = await heartbeatUntil(machine);
    expect(handed).toMatchObject({ _id: command._id, params: { minutes: 5 } });
    await report(machine, command._id, { ok: false, message: 'disk full' });
    expect(await read(command._id)).toMatchObject({ state: 'failed', message: 'disk full' });
  });

  it('wakes a machine waiting in the long-poll as soon as a command is queued for it', async () => {
    const waiting = poll(machine, 20);
    await vi.waitFor(() => expect(t.app.commandInbox.waiting).toBeGreaterThan(0));
    const startedAt = Date.now();
    const command = await sent(machine.deviceId, { kind: 'restart-app' });
    const res = await waiting;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.commands.map((c: AppCommand) => c._id)).toEqual([command._id]);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    await report(machine, command._id, { ok: true });
  });

  it('answers an empty long-poll after the wait', async () => {
    const res = await poll(other, 1);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.commands).toEqual([]);
  });

  it('holds a long-poll no longer than DEVICE_LONG_POLL_SECONDS, whatever wait the machine asks', async () => {
    const capped = await createTestApp({ DEVICE_LONG_POLL_SECONDS: '0' });
    try {
      const d = await enrolDevice(capped);
      const res = await deviceInject(capped, d.credential, {
        method: 'GET',
        url: `${commandPaths.appCommands}?wait=50`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.commands).toEqual([]);
      expect(capped.app.commandInbox.waiting).toBe(0);
    } finally {
      await capped.close();
    }
  });
});

describe('one machine never sees another’s commands', () => {
  it('hands a command to its machine only, and another machine cannot report it', async () => {
    const command = await sent(machine.deviceId, { kind: 'sync-now' });
    expect((await poll(other)).json().data.commands).toEqual([]);
    const foreign = await report(other, command._id, { ok: true });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().msg).toBe(commandMessages.notFound);
    expect((await read(command._id)).state).toBe('queued');
    await t.injectAs(admin, { method: 'POST', url: commandPaths.cancel(command._id) });
  });
});

describe('cancel and expiry', () => {
  it('cancels a queued command, which is then never delivered; a delivered one cannot be cancelled', async () => {
    const command = await sent(other.deviceId, { kind: 'sync-now' });
    const cancelled = await t.injectAs(admin, { method: 'POST', url: commandPaths.cancel(command._id) });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({
      state: 'cancelled',
      message: 'Cancelled by admin@example.com',
    });
    expect(await heartbeat(other)).toEqual([]);
    expect((await report(other, command._id, { ok: true })).statusCode).toBe(409);

    // Cancelled straight after the hand-over (its mark is written behind the answer, maybe not yet):
    // the machine has it, so the cancel is refused and the record says delivered.
    const delivered = await sent(other.deviceId, { kind: 'sync-now' });
    await heartbeatUntil(other);
    const refused = await t.injectAs(admin, { method: 'POST', url: commandPaths.cancel(delivered._id) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(commandMessages.notCancellable);
    expect(await read(delivered._id)).toMatchObject({ state: 'delivered', finishedAt: null, message: null });
    await report(other, delivered._id, { ok: true });
  });

  it('never delivers a command past its TTL, and the sweep marks it expired', async () => {
    const command = await sent(other.deviceId, { kind: 'sync-now', ttlMinutes: 1 });
    t.clock.advance(61_000);
    expect(await heartbeat(other)).toEqual([]);
    expect((await poll(other)).json().data.commands).toEqual([]);
    await t.app.runJobsNow();
    const expired = await read(command._id);
    expect(expired).toMatchObject({
      state: 'expired',
      message: 'The machine did not call before the command expired',
    });
    expect((await report(other, command._id, { ok: true })).statusCode).toBe(409);
  });
});

describe('bad input names the field', () => {
  it.each([
    [{ kind: 'format-disk' }, commandMessages.kindInvalid],
    [{}, commandMessages.kindInvalid],
    [{ kind: 'safety-hold', params: {} }, commandMessages.reasonRequired],
    [{ kind: 'safety-hold', params: { reason: ' ' } }, commandMessages.reasonRequired],
    [{ kind: 'upload-diagnostics', params: { minutes: 0 } }, commandMessages.minutesInvalid],
    [{ kind: 'sync-now', ttlMinutes: 99_999 }, commandMessages.ttlInvalid],
  ])('%j → 400', async (body, message) => {
    const res = await send(machine.deviceId, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toContain(message);
  });

  it('refuses an unknown parameter, an unknown machine and a bad long-poll wait', async () => {
    const unknown = await send(machine.deviceId, { kind: 'sync-now', params: { force: true } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toContain('force');
    const missing = await send('00000000-0000-4000-8000-000000000000', { kind: 'sync-now' });
    expect(missing.statusCode).toBe(404);
    const wait = await poll(machine, 99);
    expect(wait.statusCode).toBe(400);
    expect(wait.json().msg).toContain('wait must be');
    const result = await report(machine, '00000000-0000-4000-8000-000000000000', { ok: 'yes' });
    expect(result.statusCode).toBe(400);
    expect(result.json().msg).toContain(commandMessages.okRequired);
  });
});

describe('permissions and step-up', () => {
  it('needs commands.send; a disruptive kind also needs commands.disruptive and a fresh step-up', async () => {
    const viewer = await signInWithPermissions(t, admin, ['devices.view']);
    expect((await send(machine.deviceId, { kind: 'sync-now' }, viewer.token)).statusCode).toBe(403);

    const sender = await signInWithPermissions(t, admin, ['devices.view', 'commands.send']);
    const ok = await send(machine.deviceId, { kind: 'sync-now' }, sender.token);
    expect(ok.statusCode, ok.body).toBe(201);
    const hold = await send(
      machine.deviceId,
      { kind: 'safety-hold', params: { reason: 'recall' } },
      sender.token,
    );
    expect(hold.statusCode).toBe(403);
    expect(hold.json().msg).toBe(commandMessages.disruptiveNeedsPermission);

    const operator = await signInWithPermissions(t, admin, [
      'devices.view',
      'commands.send',
      'commands.disruptive',
    ]);
    const body = { kind: 'safety-hold', params: { reason: 'Field safety notice 12' } };
    t.clock.advance(1000); // the newest of the machine's commands in the list below
    const asked = await send(machine.deviceId, body, operator.token);
    expect(asked.statusCode).toBe(403);
    expect(asked.json().data).toMatchObject({ stepUpRequired: true });
    await t.stepUp(operator.token, operator.password);
    const held = await send(machine.deviceId, body, operator.token);
    expect(held.statusCode, held.body).toBe(201);
    expect(held.json().data.params).toEqual({ reason: 'Field safety notice 12' });
  });

  it('lists a machine’s commands newest first', async () => {
    const res = await t.injectAs(admin, {
      method: 'GET',
      url: `${commandPaths.deviceCommands(machine.deviceId)}?limit=2`,
    });
    expect(res.statusCode).toBe(200);
    const list = res.json().data;
    expect(list.total).toBeGreaterThan(4);
    expect(list.commands).toHaveLength(2);
    expect(list.commands[0].kind).toBe('safety-hold');
    expect(Date.parse(list.commands[0].createdAt)).toBeGreaterThanOrEqual(
      Date.parse(list.commands[1].createdAt),
    );
  });
});

describe('diagnostics', () => {
  it('stores the file the machine uploads, for the admin to download', async () => {
    const command = await sent(other.deviceId, { kind: 'upload-diagnostics' });
    await heartbeatUntil(other);
    const file = Buffer.from('2026-11-28T10:00:00Z INFO app started\n'.repeat(100));
    const up = await deviceInject(t, other.credential, {
      method: 'PUT',
      url: commandPaths.appDiagnostics(command._id),
      headers: { 'content-type': 'text/plain' },
      payload: file,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data.size).toBe(file.length);
    await report(other, command._id, { ok: true });
    expect((await read(command._id)).diagnostics).toMatchObject({ size: file.length });

    const down = await t.injectAs(admin, { method: 'GET', url: commandPaths.diagnostics(command._id) });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-disposition']).toMatch(/^attachment; filename="diagnostics-.*\.txt"$/);
    expect(down.rawPayload.equals(file)).toBe(true);
  });

  it('refuses a file for another kind of command, another machine’s command, and a file too large', async () => {
    const sync = await sent(other.deviceId, { kind: 'sync-now' });
    const wrongKind = await deviceInject(t, other.credential, {
      method: 'PUT',
      url: commandPaths.appDiagnostics(sync._id),
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('x'),
    });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().msg).toBe(commandMessages.notDiagnostics);

    const diag = await sent(other.deviceId, { kind: 'upload-diagnostics' });
    const foreign = await deviceInject(t, machine.credential, {
      method: 'PUT',
      url: commandPaths.appDiagnostics(diag._id),
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('x'),
    });
    expect(foreign.statusCode).toBe(404);
    const tooLarge = await deviceInject(t, other.credential, {
      method: 'PUT',
      url: commandPaths.appDiagnostics(diag._id),
      headers: { 'content-type': 'application/gzip' },
      payload: Buffer.alloc(10 * 1024 * 1024 + 10),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().msg).toBe('File is larger than the limit of 10 MB');
    const none = await t.injectAs(admin, { method: 'GET', url: commandPaths.diagnostics(diag._id) });
    expect(none.statusCode).toBe(404);
    expect(none.json().msg).toBe(commandMessages.noDiagnostics);
  });

  it('cuts a chunked upload off at 10 MB with a 413 over real HTTP, and keeps no file', async () => {
    const diag = await sent(other.deviceId, { kind: 'upload-diagnostics' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: commandPaths.appDiagnostics(diag._id),
          // No Content-Length: the size is only known by counting.
          headers: { 'content-type': 'application/gzip', authorization: `Device ${other.credential}` },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 11; i++) req.write(chunk);
      req.end();
    });
    expect(answer.status, answer.body).toBe(413);
    expect(JSON.parse(answer.body).msg).toBe('File is larger than the limit of 10 MB');
    expect((await read(diag._id)).diagnostics).toBeFalsy();
  });
});
