import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupPaths } from '@app/contract/groups';
import { maintenanceWindowPaths } from '@app/contract/maintenance-windows';
import {
  settingsMessages,
  settingsPaths,
  type AppSettings,
  type MachineSettingsView,
} from '@app/contract/machine-settings';
import { apiPaths } from '@app/contract/paths';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { adminToken, deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Settings of the machines' app (issue 37 item 3): fleet, group and machine values, the nearest
 * winning; the machine learns the version from its heartbeat, fetches, applies and reports it; the
 * console sees drift until it does. Bad values are refused naming the key.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminToken(t);
});
afterAll(() => t.close());

const change = (url: string, payload: Record<string, unknown>, token = admin) =>
  t.injectAs(token, { method: 'PATCH', url, payload });
const view = async (deviceId: string): Promise<MachineSettingsView> => {
  const res = await t.injectAs(admin, { method: 'GET', url: settingsPaths.machine(deviceId) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const appSettings = async (d: EnrolledDevice): Promise<AppSettings> => {
  const res = await deviceInject(t, d.credential, { method: 'GET', url: settingsPaths.app });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const heartbeat = async (d: EnrolledDevice) => {
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 7, versionName: '7.0.0' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { settingsVersion: number; nextHeartbeatSeconds: number };
};
/** The notice that a machine's settings changed is asynchronous: heartbeat until the answer says `version`. */
const heartbeatUntil = async (d: EnrolledDevice, version: number) => {
  let beat = await heartbeat(d);
  for (let i = 0; i < 100 && beat.settingsVersion !== version; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    beat = await heartbeat(d);
  }
  expect(beat.settingsVersion).toBe(version);
  return beat;
};
const staticGroup = async (name: string, ids: string[]) => {
  const created = await t.injectAs(admin, {
    method: 'POST',
    url: groupPaths.groups,
    payload: { name, kind: 'static' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const group = created.json().data as { _id: string };
  const added = await t.injectAs(admin, {
    method: 'POST',
    url: groupPaths.members(group._id),
    payload: { ids },
  });
  expect(added.statusCode, added.body).toBe(200);
  return group;
};

describe('a machine’s effective settings', () => {
  it('start at the defaults (the heartbeat interval is the server’s), version 0, no drift', async () => {
    const d = await enrolDevice(t);
    const beat = await heartbeat(d);
    expect(beat).toMatchObject({ settingsVersion: 0, nextHeartbeatSeconds: 300 });
    expect(await appSettings(d)).toEqual({
      version: 0,
      settings: {
        heartbeatSeconds: 300,
        logLevel: 'info',
        language: 'en',
        timeZone: 'UTC',
        licenceOfflineDays: 7,
      },
    });
    const shown = await view(d.deviceId);
    expect(shown).toMatchObject({ version: 0, appliedVersion: null, driftSince: null, own: {} });
    expect(shown.sources.logLevel).toEqual({ source: 'default', group: null });
  });

  it('follow the fleet, then a group, then the machine’s own; the heartbeat names the version and interval', async () => {
    const [a, b] = [await enrolDevice(t), await enrolDevice(t)];
    await heartbeat(a); // in memory from here: the notices must reach it

    const fleet = await change(settingsPaths.fleet, { logLevel: 'warn' });
    expect(fleet.statusCode, fleet.body).toBe(200);
    expect(fleet.json()).toMatchObject({
      msg: settingsMessages.saved,
      data: { values: { logLevel: 'warn' } },
    });
    expect(fleet.json().data.machinesChanged).toBeGreaterThanOrEqual(2);
    await heartbeatUntil(a, 1);
    expect((await appSettings(a)).settings.logLevel).toBe('warn');
    expect((await view(a.deviceId)).sources.logLevel).toEqual({ source: 'fleet', group: null });

    const group = await staticGroup(`Ward ${a.deviceId.slice(0, 6)}`, [a.deviceId]);
    const set = await change(settingsPaths.group(group._id), { heartbeatSeconds: 60, logLevel: 'debug' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({
      values: { heartbeatSeconds: 60, logLevel: 'debug' },
      machinesChanged: 1,
    });
    expect(await heartbeatUntil(a, 2)).toMatchObject({ nextHeartbeatSeconds: 60 });
    const ofA = await view(a.deviceId);
    expect(ofA.effective).toMatchObject({ heartbeatSeconds: 60, logLevel: 'debug' });
    expect(ofA.sources.heartbeatSeconds).toEqual({
      source: 'group',
      group: { _id: group._id, name: `Ward ${a.deviceId.slice(0, 6)}` },
    });
    // Not in the group: the fleet's value still.
    expect((await appSettings(b)).settings).toMatchObject({ heartbeatSeconds: 300, logLevel: 'warn' });

    const own = await change(settingsPaths.machine(a.deviceId), { logLevel: 'error', language: 'de' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data).toMatchObject({ own: { logLevel: 'error', language: 'de' }, version: 3 });
    expect(own.json().data.sources.logLevel).toEqual({ source: 'machine', group: null });

    // The group drops its log level: the machine's own still wins, so its version does not move.
    const dropped = await change(settingsPaths.group(group._id), { logLevel: null });
    expect(dropped.json().data).toEqual({ values: { heartbeatSeconds: 60 }, machinesChanged: 0 });
    // The machine drops its own: the fleet's applies again (the group no longer sets it).
    const back = await change(settingsPaths.machine(a.deviceId), { logLevel: null });
    expect(back.json().data.effective.logLevel).toBe('warn');
    expect(back.json().data.sources.logLevel).toEqual({ source: 'fleet', group: null });
    expect(back.json().data.version).toBe(4);

    // A change that leaves the effective settings as they are does not move the version.
    const same = await change(settingsPaths.machine(a.deviceId), { heartbeatSeconds: 60 });
    expect(same.json().data).toMatchObject({ version: 4, own: { heartbeatSeconds: 60, language: 'de' } });
    await change(settingsPaths.fleet, { logLevel: null });
  });
});

describe('a machine added to a static group later', () => {
  it('takes the window and the settings set on the group before, and hears of them on its next heartbeat', async () => {
    const first = await enrolDevice(t);
    const group = await staticGroup(`Later ${first.deviceId.slice(0, 6)}`, [first.deviceId]);
    await change(settingsPaths.group(group._id), { logLevel: 'debug' });
    const window = { start: '01:00', end: '03:00', timeZone: 'Europe/Berlin' };
    await t.injectAs(admin, {
      method: 'PUT',
      url: maintenanceWindowPaths.group(group._id),
      payload: { window },
    });

    const late = await enrolDevice(t);
    await heartbeat(late);
    const added = await t.injectAs(admin, {
      method: 'POST',
      url: groupPaths.members(group._id),
      payload: { ids: [late.deviceId] },
    });
    expect(added.json().data).toEqual({ changed: 1, machineCount: 2 });
    const shown = await view(late.deviceId);
    expect(shown).toMatchObject({ version: 1, effective: { logLevel: 'debug' } });
    expect(shown.sources.logLevel!.group).toEqual({
      _id: group._id,
      name: `Later ${first.deviceId.slice(0, 6)}`,
    });
    await heartbeatUntil(late, 1);
    const windowNow = await t.injectAs(admin, {
      method: 'GET',
      url: maintenanceWindowPaths.machine(late.deviceId),
    });
    expect(windowNow.json().data).toMatchObject({ window, fromGroup: { _id: group._id } });
  });
});

describe('a deleted group', () => {
  it('takes its settings and its window off its machines, which learn of it on their next heartbeat', async () => {
    const d = await enrolDevice(t);
    await heartbeat(d);
    const group = await staticGroup(`Gone ${d.deviceId.slice(0, 6)}`, [d.deviceId]);
    await change(settingsPaths.group(group._id), { heartbeatSeconds: 90 });
    const window = { start: '02:00', end: '04:00', timeZone: 'UTC' };
    await t.injectAs(admin, {
      method: 'PUT',
      url: maintenanceWindowPaths.group(group._id),
      payload: { window },
    });
    await heartbeatUntil(d, 1);

    const deleted = await t.injectAs(admin, { method: 'DELETE', url: groupPaths.group(group._id) });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const shown = await view(d.deviceId);
    expect(shown).toMatchObject({ version: 2, effective: { heartbeatSeconds: 300 } });
    expect(shown.sources.heartbeatSeconds).toEqual({ source: 'default', group: null });
    expect(await heartbeatUntil(d, 2)).toMatchObject({ nextHeartbeatSeconds: 300 });
    const windowNow = await t.injectAs(admin, {
      method: 'GET',
      url: maintenanceWindowPaths.machine(d.deviceId),
    });
    expect(windowNow.json().data).toMatchObject({ window: null, fromGroup: null });
  });
});

describe('drift', () => {
  it('shows from the change until the machine reports the version it applied', async () => {
    const d = await enrolDevice(t);
    await change(settingsPaths.machine(d.deviceId), { timeZone: 'Europe/Berlin' });
    const drifting = await view(d.deviceId);
    expect(drifting.version).toBe(1);
    expect(drifting.driftSince).toBe(t.clock.now.toISOString());

    const got = await appSettings(d);
    expect(got).toEqual({ version: 1, settings: expect.objectContaining({ timeZone: 'Europe/Berlin' }) });
    const tooNew = await deviceInject(t, d.credential, {
      method: 'POST',
      url: settingsPaths.appApplied,
      payload: { version: 2 },
    });
    expect(tooNew.statusCode).toBe(400);
    expect(tooNew.json().msg).toBe(settingsMessages.appliedTooNew);
    const applied = await deviceInject(t, d.credential, {
      method: 'POST',
      url: settingsPaths.appApplied,
      payload: { version: got.version },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data).toEqual({ version: 1, appliedVersion: 1 });
    expect(await view(d.deviceId)).toMatchObject({ appliedVersion: 1, driftSince: null });
  });
});

describe('bad values', () => {
  it.each([
    [{ heartbeatSeconds: 5 }, settingsMessages.heartbeatSeconds],
    [{ heartbeatSeconds: 60.5 }, settingsMessages.heartbeatSeconds],
    [{ heartbeatSeconds: '60' }, settingsMessages.heartbeatSeconds],
    [{ logLevel: 'verbose' }, settingsMessages.logLevel],
    [{ language: 'xx' }, settingsMessages.language],
    [{ timeZone: 'Mars/Olympus' }, settingsMessages.timeZone],
    [{}, settingsMessages.noChange],
  ])('%j is refused naming the key', async (payload, message) => {
    const d = await enrolDevice(t);
    for (const url of [settingsPaths.machine(d.deviceId), settingsPaths.fleet]) {
      const res = await change(url, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe(message);
    }
    expect((await view(d.deviceId)).version).toBe(0);
  });

  it('refuses an unknown key and a bad applied version', async () => {
    const d = await enrolDevice(t);
    const unknown = await change(settingsPaths.machine(d.deviceId), { brightness: 3 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toMatch(/brightness/);
    const bad = await deviceInject(t, d.credential, {
      method: 'POST',
      url: settingsPaths.appApplied,
      payload: { version: -1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(settingsMessages.appliedInvalid);
  });
});

describe('who may', () => {
  it('reads with devices.view, changes a machine with devices.edit and the fleet or a group with groups.manage', async () => {
    const d = await enrolDevice(t);
    const viewer = await signInWithPermissions(t, admin, ['devices.view']);
    expect(
      (await t.injectAs(viewer.token, { method: 'GET', url: settingsPaths.machine(d.deviceId) })).statusCode,
    ).toBe(200);
    expect(
      (await change(settingsPaths.machine(d.deviceId), { language: 'fr' }, viewer.token)).statusCode,
    ).toBe(403);
    const editor = await signInWithPermissions(t, admin, ['devices.view', 'devices.edit']);
    expect(
      (await change(settingsPaths.machine(d.deviceId), { language: 'fr' }, editor.token)).statusCode,
    ).toBe(200);
    expect((await change(settingsPaths.fleet, { language: 'fr' }, editor.token)).statusCode).toBe(403);
  });

  it('a machine reads and reports only its own settings', async () => {
    const [a, b] = [await enrolDevice(t), await enrolDevice(t)];
    await change(settingsPaths.machine(a.deviceId), { language: 'nl' });
    expect((await appSettings(a)).settings.language).toBe('nl');
    expect(await appSettings(b)).toMatchObject({ version: 0, settings: { language: 'en' } });
    // b cannot report a's version 1: it has none.
    const res = await deviceInject(t, b.credential, {
      method: 'POST',
      url: settingsPaths.appApplied,
      payload: { version: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect((await view(a.deviceId)).appliedVersion).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: settingsPaths.app })).statusCode).toBe(401);
  });
});
