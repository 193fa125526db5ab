import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupPaths, type Group } from '@app/contract/groups';
import { settingsPaths, type MachineSettingsView } from '@app/contract/machine-settings';
import { maintenanceWindowPaths, type MachineWindow } from '@app/contract/maintenance-windows';
import { apiPaths } from '@app/contract/paths';
import { devices } from '#api/db/schema/devices.ts';
import {
  adminToken,
  addDevice,
  deviceInject,
  enrolDevice,
  flushCheckIns,
  type EnrolledDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * A dynamic group's window and settings follow its filter (decision 079): the 'dynamic group sync'
 * job writes them on machines that newly match and takes them off machines that no longer do; a
 * machine's own values still win. The job runs here by hand, with the test app's movable clock.
 */

let t: TestApp;
let admin: string;
let sync: () => Promise<unknown>;
beforeAll(async () => {
  // A machine is offline after a minute's silence: the clock moves two.
  t = await createTestApp({ DEVICE_OFFLINE_MINUTES: '1' });
  admin = await adminToken(t);
  const job = t.app.declaredJobs.find((j) => j.name === 'dynamic group sync');
  expect(job).toMatchObject({ everySeconds: 60 });
  sync = job!.run;
});
afterAll(() => t.close());

const call = async (method: 'POST' | 'PUT' | 'PATCH' | 'GET', url: string, payload?: object) => {
  const res = await t.injectAs(admin, { method, url, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().data;
};
const dynamicGroup = async (filter: object, window?: object, settings?: object): Promise<Group> => {
  const name = `Dynamic ${Math.random().toString(36).slice(2, 10)}`;
  const group: Group = await call('POST', groupPaths.groups, { name, kind: 'dynamic', filter });
  if (window) await call('PUT', maintenanceWindowPaths.group(group._id), { window });
  if (settings) await call('PATCH', settingsPaths.group(group._id), settings);
  return group;
};
const settingsOf = (id: string): Promise<MachineSettingsView> => call('GET', settingsPaths.machine(id));
const windowOf = (id: string): Promise<MachineWindow> => call('GET', maintenanceWindowPaths.machine(id));
const moveTo = (id: string, city: string) =>
  t.database.db.update(devices).set({ city }).where(eq(devices.id, id));
const uniqueCity = () => `Sync-${Math.random().toString(36).slice(2, 10)}`;
const night = { start: '02:00', end: '04:00', timeZone: 'Europe/Berlin' };
const heartbeat = async (d: EnrolledDevice) => {
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 7, versionName: '7.0.0' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { settingsVersion: number };
};

describe('the dynamic group sync', () => {
  it('writes the window and settings on a machine that newly matches, its own values winning, and takes them off when it stops', async () => {
    const city = uniqueCity();
    const group = await dynamicGroup({ city }, night, { heartbeatSeconds: 60, language: 'de' });
    const fresh = await addDevice(t, { city });
    // A machine elsewhere with its own language and window, that moves into the city later.
    const own = await addDevice(t, { city: uniqueCity() });
    const ownWindow = { start: '12:00', end: '13:00', timeZone: 'UTC' };
    await call('PATCH', settingsPaths.machine(own.deviceId), { language: 'fr' });
    await call('PUT', maintenanceWindowPaths.machine(own.deviceId), { window: ownWindow });
    await moveTo(own.deviceId, city);
    expect((await settingsOf(fresh.deviceId)).version).toBe(0);
    expect((await windowOf(fresh.deviceId)).window).toBeNull();

    await sync();
    const freshSettings = await settingsOf(fresh.deviceId);
    expect(freshSettings).toMatchObject({ version: 1, effective: { heartbeatSeconds: 60, language: 'de' } });
    expect(freshSettings.sources.language).toEqual({
      source: 'group',
      group: { _id: group._id, name: group.name },
    });
    expect(await windowOf(fresh.deviceId)).toMatchObject({
      window: night,
      fromGroup: { _id: group._id, name: group.name },
    });
    const ownSettings = await settingsOf(own.deviceId);
    expect(ownSettings).toMatchObject({ version: 2, effective: { heartbeatSeconds: 60, language: 'fr' } });
    expect(ownSettings.sources.language).toEqual({ source: 'machine', group: null });
    expect(await windowOf(own.deviceId)).toMatchObject({ window: ownWindow, fromGroup: null });

    // Nothing changed: nothing is written again, no version grows.
    await sync();
    expect((await settingsOf(fresh.deviceId)).version).toBe(1);

    await moveTo(fresh.deviceId, uniqueCity());
    await moveTo(own.deviceId, uniqueCity());
    await sync();
    expect(await settingsOf(fresh.deviceId)).toMatchObject({
      version: 2,
      effective: { heartbeatSeconds: 300, language: 'en' },
    });
    expect((await windowOf(fresh.deviceId)).window).toBeNull();
    expect(await settingsOf(own.deviceId)).toMatchObject({ version: 3, effective: { language: 'fr' } });
    expect((await windowOf(own.deviceId)).window).toEqual(ownWindow);
  });

  it('follows the online filter as the clock moves: an offline machine takes the settings, back online it loses them, and its heartbeat hears of both', async () => {
    const city = uniqueCity();
    await dynamicGroup({ city, online: 'offline' }, undefined, { logLevel: 'debug' });
    const d = await enrolDevice(t, (await addDevice(t, { city })).deviceId);
    await heartbeat(d);
    await flushCheckIns(t);
    await sync();
    expect((await settingsOf(d.deviceId)).effective.logLevel).toBe('info');

    t.clock.advance(2 * 60_000);
    await sync();
    expect(await settingsOf(d.deviceId)).toMatchObject({ version: 1, effective: { logLevel: 'debug' } });
    // The heartbeat names the new version (the notice reaches its memory asynchronously).
    let beat = await heartbeat(d);
    for (let i = 0; i < 100 && beat.settingsVersion !== 1; i++) beat = await heartbeat(d);
    expect(beat.settingsVersion).toBe(1);

    await flushCheckIns(t);
    await sync();
    expect(await settingsOf(d.deviceId)).toMatchObject({ version: 2, effective: { logLevel: 'info' } });
  });

  it("takes a group's values off a machine that stopped matching before any sync saw it match", async () => {
    const city = uniqueCity();
    const d = await addDevice(t, { city });
    await dynamicGroup({ city }, night, { timeZone: 'Europe/Paris' });
    expect((await settingsOf(d.deviceId)).effective.timeZone).toBe('Europe/Paris');
    await moveTo(d.deviceId, uniqueCity());
    await sync();
    expect((await settingsOf(d.deviceId)).effective.timeZone).toBe('UTC');
    expect((await windowOf(d.deviceId)).window).toBeNull();
  });

  it('gives a machine in two dynamic groups each once, the one it joined last winning, without going back and forth', async () => {
    const city = uniqueCity();
    await dynamicGroup({ city }, undefined, { language: 'nl' });
    await dynamicGroup({ city, online: 'never' }, undefined, { language: 'it' });
    const d = await addDevice(t, { city });
    await sync();
    const first = await settingsOf(d.deviceId);
    expect(['nl', 'it']).toContain(first.effective.language);
    await sync();
    await sync();
    expect(await settingsOf(d.deviceId)).toEqual(first);
  });

  it('writes each machine once when two instances sync at the same time', async () => {
    const city = uniqueCity();
    await dynamicGroup({ city }, undefined, { heartbeatSeconds: 120 });
    const machines = [await addDevice(t, { city }), await addDevice(t, { city })];
    await Promise.all([sync(), sync()]);
    for (const m of machines)
      expect(await settingsOf(m.deviceId)).toMatchObject({
        version: 1,
        effective: { heartbeatSeconds: 120 },
      });
  });
});
