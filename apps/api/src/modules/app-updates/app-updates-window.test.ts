import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUpdateListItem, LatestUpdate } from '@app/contract/app-updates';
import { maintenanceWindowPaths, type MaintenanceWindow } from '@app/contract/maintenance-windows';
import { apiPaths } from '@app/contract/paths';
import { deviceInject, enrolDevice, flushCheckIns, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { multipart } from './app-updates-test-app.ts';
import { buildDemoApk } from './zip-writer.ts';

/*
 * App updates that respect maintenance windows (issue 37 item 4): such a release is offered to a
 * machine only inside its window and while its heartbeat says no treatment runs; until then the
 * update check says why it waits and the rollout counts the machines waiting. Other releases, and a
 * rollback, never wait.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ ROLLOUT_SECOND_ADMIN: 'false' });
  token = await t.login();
  await t.stepUp(token);
});
afterAll(() => t.close());

const pkg = 'com.example.window';
let nextCode = 1;

async function release(extra: Record<string, string>) {
  const versionCode = nextCode++;
  const body = multipart(
    {
      appName: pkg,
      versionCode: String(versionCode),
      versionName: `${versionCode}.0.0`,
      remark: 'r',
      updateDesc: 'd',
      updateType: '2',
      ...extra,
    },
    { name: 'app.apk', data: buildDemoApk(pkg, versionCode, 0, `${versionCode}.0.0`) },
  );
  const res = await t.injectAs(token, { method: 'POST', url: apiPaths.systemUpdates, ...body });
  return res;
}
const check = async (machine: EnrolledDevice, installed: number): Promise<LatestUpdate> => {
  const res = await deviceInject(t, machine.credential, {
    method: 'GET',
    url: `${apiPaths.appUpdateLatest}?appName=${pkg}&versionCode=${installed}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const heartbeat = async (machine: EnrolledDevice, versionCode: number, busy: boolean) => {
  const res = await deviceInject(t, machine.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode, versionName: `${versionCode}.0.0`, appName: pkg, busy },
  });
  expect(res.statusCode, res.body).toBe(200);
  await flushCheckIns(t);
};
const hhmm = (d: Date) => d.toISOString().slice(11, 16);
const windowFrom = (fromMinutes: number, toMinutes: number): MaintenanceWindow => ({
  start: hhmm(new Date(t.clock.now.getTime() + fromMinutes * 60_000)),
  end: hhmm(new Date(t.clock.now.getTime() + toMinutes * 60_000)),
  timeZone: 'UTC',
});
const setWindow = async (machine: EnrolledDevice, window: MaintenanceWindow | null) => {
  const res = await t.injectAs(token, {
    method: 'PUT',
    url: maintenanceWindowPaths.machine(machine.deviceId),
    payload: { window },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const progressOf = async (id: string) => {
  const res = await t.injectAs(token, { method: 'GET', url: `${apiPaths.systemUpdatesAll}?limit=100` });
  expect(res.statusCode, res.body).toBe(200);
  const item = (res.json().data.allSystems as AppUpdateListItem[]).find((r) => r._id === id)!;
  return item.progress;
};

describe('a Force update that respects maintenance windows', () => {
  it('waits for the window, then for the treatment to end, then is offered; the rollout counts who waits', async () => {
    const base = await release({});
    expect(base.json().data.respectsWindow).toBe(false);
    const machine = await enrolDevice(t);
    const plain = await enrolDevice(t); // no window: never waits (but busy does)
    await heartbeat(machine, 1, false);
    await heartbeat(plain, 1, false);
    await setWindow(machine, windowFrom(60, 120));

    const created = await release({ respectsWindow: 'true' });
    expect(created.statusCode, created.body).toBe(201);
    const v2 = created.json().data as { _id: string; respectsWindow: boolean };
    expect(v2.respectsWindow).toBe(true);

    // Closed window: not offered, and said why.
    expect(await check(machine, 1)).toMatchObject({
      versionCode: 2,
      updateAvailable: false,
      forceUpdate: false,
      waiting: 'window',
    });
    expect(await check(plain, 1)).toMatchObject({ updateAvailable: true, forceUpdate: true, waiting: null });
    expect(await progressOf(v2._id)).toMatchObject({
      onOldVersion: 2,
      waitingForWindow: 1,
      waitingForTreatment: 0,
    });

    // Inside the window but a treatment runs: still waits, for the treatment now.
    t.clock.advance(90 * 60_000);
    token = await t.login(); // the admin's session timed out meanwhile
    await t.stepUp(token);
    await heartbeat(machine, 1, true);
    expect(await check(machine, 1)).toMatchObject({ updateAvailable: false, waiting: 'treatment' });
    expect(await progressOf(v2._id)).toMatchObject({ waitingForWindow: 0, waitingForTreatment: 1 });

    // The treatment ends: offered, forced, and no longer counted as waiting.
    await heartbeat(machine, 1, false);
    expect(await check(machine, 1)).toMatchObject({
      updateAvailable: true,
      forceUpdate: true,
      waiting: null,
    });
    expect(await progressOf(v2._id)).toMatchObject({ waitingForWindow: 0, waitingForTreatment: 0 });
  });

  it('refuses a respectsWindow that is not true or false, naming it', async () => {
    const res = await release({ respectsWindow: 'maybe' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('respectsWindow must be true or false');
    nextCode--;
  });
});
