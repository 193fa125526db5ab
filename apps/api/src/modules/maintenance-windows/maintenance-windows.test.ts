import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandPaths, type AppCommand, type Command } from '@app/contract/commands';
import { groupPaths } from '@app/contract/groups';
import {
  maintenanceWindowMessages,
  maintenanceWindowPaths,
  type MaintenanceWindow,
} from '@app/contract/maintenance-windows';
import { apiPaths } from '@app/contract/paths';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import {
  adminToken,
  deviceInject,
  enrolDevice,
  flushCheckIns,
  type EnrolledDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Maintenance windows and the busy flag (issue 37 item 4): a restart or a re-enrol reaches the
 * machine only inside its window and never while its heartbeat says a treatment runs; other kinds,
 * a safety hold above all, go at once. The console says why a command waits.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminToken(t);
});
afterAll(() => t.close());

const hhmm = (d: Date) => d.toISOString().slice(11, 16);
/** A UTC window `fromMinutes` to `toMinutes` from the test clock's now. */
const windowAround = (fromMinutes: number, toMinutes: number): MaintenanceWindow => ({
  start: hhmm(new Date(t.clock.now.getTime() + fromMinutes * 60_000)),
  end: hhmm(new Date(t.clock.now.getTime() + toMinutes * 60_000)),
  timeZone: 'UTC',
});
const setWindow = (deviceId: string, window: MaintenanceWindow | null, token = admin) =>
  t.injectAs(token, { method: 'PUT', url: maintenanceWindowPaths.machine(deviceId), payload: { window } });
const send = async (deviceId: string, kind: string, params = {}): Promise<Command> => {
  const res = await t.injectAs(admin, {
    method: 'POST',
    url: commandPaths.deviceCommands(deviceId),
    payload: { kind, params },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};
const read = async (id: string): Promise<Command> =>
  (await t.injectAs(admin, { method: 'GET', url: commandPaths.command(id) })).json().data;
const heartbeat = async (d: EnrolledDevice, busy?: boolean): Promise<AppCommand[]> => {
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 7, versionName: '7.0.0', ...(busy === undefined ? {} : { busy }) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.commands;
};
const kindsOf = (list: AppCommand[]) => list.map((c) => c.kind).sort();

describe('a machine’s window holds a restart until it opens', () => {
  it('hands sync-now and a safety hold at once, keeps the restart queued "waiting for window", then delivers it inside the window', async () => {
    const d = await enrolDevice(t);
    const closed = await setWindow(d.deviceId, windowAround(60, 120));
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().msg).toBe(maintenanceWindowMessages.saved);
    expect(closed.json().data).toMatchObject({ openNow: false, fromGroup: null, busySince: null });

    const restart = await send(d.deviceId, 'restart-app');
    await send(d.deviceId, 'sync-now');
    await send(d.deviceId, 'safety-hold', { reason: 'Field safety notice 12' });
    expect(restart.waiting).toBe('window');

    // The notice of each new command is asynchronous: heartbeat until both free kinds came.
    let got: AppCommand[] = [];
    for (let i = 0; i < 50 && got.length < 2; i++) {
      got = await heartbeat(d);
      if (got.length < 2) await new Promise((r) => setTimeout(r, 20));
    }
    expect(kindsOf(got)).toEqual(['safety-hold', 'sync-now']);
    expect((await read(restart._id)).state).toBe('queued');
    // Still held on the next call, and the long-poll holds it too.
    expect(kindsOf(await heartbeat(d))).toEqual(['safety-hold', 'sync-now']);

    const open = await setWindow(d.deviceId, windowAround(-5, 55));
    expect(open.json().data.openNow).toBe(true);
    expect((await read(restart._id)).waiting).toBeNull();
    expect(kindsOf(await heartbeat(d))).toEqual(['restart-app', 'safety-hold', 'sync-now']);
    await vi.waitFor(async () => expect((await read(restart._id)).state).toBe('delivered'));
  });

  it('never hands a restart while the heartbeat says a treatment runs, and says so', async () => {
    const d = await enrolDevice(t);
    const restart = await send(d.deviceId, 're-enrol');
    // No window: always open, but busy.
    let got: AppCommand[] = [];
    for (let i = 0; i < 20; i++) got = await heartbeat(d, true);
    expect(got).toEqual([]);
    await flushCheckIns(t);
    const shown = await t.injectAs(admin, { method: 'GET', url: maintenanceWindowPaths.machine(d.deviceId) });
    expect(shown.json().data.busySince).not.toBeNull();
    expect((await read(restart._id)).waiting).toBe('treatment');
    // The long-poll goes by the last flag written.
    const poll = await deviceInject(t, d.credential, {
      method: 'GET',
      url: `${commandPaths.appCommands}?wait=0`,
    });
    expect(poll.json().data.commands).toEqual([]);

    expect(kindsOf(await heartbeat(d, false))).toEqual(['re-enrol']);
    await flushCheckIns(t);
    expect(
      (await t.injectAs(admin, { method: 'GET', url: maintenanceWindowPaths.machine(d.deviceId) })).json()
        .data.busySince,
    ).toBeNull();
  });
});

describe('a group’s window', () => {
  it('is written on the group’s machines, shown as coming from it, and removed from them again', async () => {
    const [a, b] = [await enrolDevice(t), await enrolDevice(t)];
    const created = await t.injectAs(admin, {
      method: 'POST',
      url: groupPaths.groups,
      payload: { name: `Night shift ${a.deviceId.slice(0, 6)}`, kind: 'static' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const group = created.json().data;
    const added = await t.injectAs(admin, {
      method: 'POST',
      url: groupPaths.members(group._id),
      payload: { ids: [a.deviceId, b.deviceId] },
    });
    expect(added.statusCode, added.body).toBe(200);

    const window = { start: '22:00', end: '02:00', timeZone: 'Europe/Amsterdam' };
    const set = await t.injectAs(admin, {
      method: 'PUT',
      url: maintenanceWindowPaths.group(group._id),
      payload: { window },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({ window, machineCount: 2 });
    const ofA = (
      await t.injectAs(admin, { method: 'GET', url: maintenanceWindowPaths.machine(a.deviceId) })
    ).json().data;
    expect(ofA).toMatchObject({ window, fromGroup: { _id: group._id, name: group.name } });
    expect(
      (await t.injectAs(admin, { method: 'GET', url: groupPaths.group(group._id) })).json().data
        .maintenanceWindow,
    ).toEqual(window);

    // b gets its own window; removing the group's leaves b's own.
    await setWindow(b.deviceId, { start: '03:00', end: '04:00', timeZone: 'UTC' });
    const cleared = await t.injectAs(admin, {
      method: 'PUT',
      url: maintenanceWindowPaths.group(group._id),
      payload: { window: null },
    });
    expect(cleared.json()).toMatchObject({
      msg: maintenanceWindowMessages.cleared,
      data: { machineCount: 1 },
    });
    const after = async (d: EnrolledDevice) =>
      (await t.injectAs(admin, { method: 'GET', url: maintenanceWindowPaths.machine(d.deviceId) })).json()
        .data;
    expect((await after(a)).window).toBeNull();
    expect((await after(b)).window).toEqual({ start: '03:00', end: '04:00', timeZone: 'UTC' });
  });
});

describe('bad input and permissions', () => {
  it('names the field of a bad window, and a busy flag that is not true or false', async () => {
    const d = await enrolDevice(t);
    const bad = async (window: unknown) => (await setWindow(d.deviceId, window as MaintenanceWindow)).json();
    expect(await bad({ start: '2am', end: '04:00', timeZone: 'UTC' })).toMatchObject({
      code: 400,
      msg: expect.stringContaining(maintenanceWindowMessages.startInvalid),
    });
    expect((await bad({ start: '02:00', end: '04:00', timeZone: 'Moon/Base' })).msg).toContain(
      maintenanceWindowMessages.timeZoneInvalid,
    );
    expect((await bad({ start: '02:00', end: '02:00', timeZone: 'UTC' })).msg).toContain(
      maintenanceWindowMessages.sameStartEnd,
    );
    const busy = await deviceInject(t, d.credential, {
      method: 'POST',
      url: apiPaths.appHeartbeat,
      payload: { versionCode: 7, versionName: '7.0.0', busy: 'yes' },
    });
    expect(busy.statusCode).toBe(400);
    expect(busy.json().msg).toContain('busy must be true or false');
  });

  it('needs devices.edit for a machine’s window and groups.manage for a group’s', async () => {
    const d = await enrolDevice(t);
    const viewer = await signInWithPermissions(t, admin, ['devices.view']);
    expect((await setWindow(d.deviceId, null, viewer.token)).statusCode).toBe(403);
    expect(
      (await t.injectAs(viewer.token, { method: 'GET', url: maintenanceWindowPaths.machine(d.deviceId) }))
        .statusCode,
    ).toBe(200);
    const editor = await signInWithPermissions(t, admin, ['devices.view', 'devices.edit']);
    expect((await setWindow(d.deviceId, null, editor.token)).statusCode).toBe(200);
  });
});
