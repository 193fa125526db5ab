import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandPaths } from '@app/contract/commands';
import type { Operations } from '@app/contract/dashboard';
import { settingsPaths } from '@app/contract/machine-settings';
import { apiPaths } from '@app/contract/paths';
import { adminToken, deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Device Management's Settings and Commands filters and the dashboard's Remote operations figures
 * (issue 37 item 5): each figure is the total of the list its link opens.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminToken(t);
});
afterAll(() => t.close());

const listed = async (query: string) => {
  const res = await t.injectAs(admin, { method: 'GET', url: `${apiPaths.machines}?limit=100&${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { allDevices: { _id: string }[]; total: number };
  return { ids: data.allDevices.map((d) => d._id), total: data.total };
};
const remote = async () =>
  ((await t.injectAs(admin, { method: 'GET', url: apiPaths.dashboardOperations })).json().data as Operations)
    .remote!;
const failCommand = async (d: EnrolledDevice) => {
  const sent = await t.injectAs(admin, {
    method: 'POST',
    url: commandPaths.deviceCommands(d.deviceId),
    payload: { kind: 'sync-now', params: {} },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const id = sent.json().data._id as string;
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: commandPaths.appResult(id),
    payload: { ok: false, message: 'Network unreachable' },
  });
  expect(res.statusCode, res.body).toBe(200);
};

describe('machines to look at', () => {
  it('lists the machines with settings not applied, and those with a failed command; the dashboard counts the same', async () => {
    const [drifting, applied, failing] = [await enrolDevice(t), await enrolDevice(t), await enrolDevice(t)];
    expect(await remote()).toEqual({ settingsDrift: 0, failedCommands: 0 });

    for (const d of [drifting, applied])
      await t.injectAs(admin, {
        method: 'PATCH',
        url: settingsPaths.machine(d.deviceId),
        payload: { logLevel: 'debug' },
      });
    await deviceInject(t, applied.credential, {
      method: 'POST',
      url: settingsPaths.appApplied,
      payload: { version: 1 },
    });
    await failCommand(failing);

    const drift = await listed('settings=drift');
    expect(drift.ids).toEqual([drifting.deviceId]);
    expect((await listed('settings=applied')).ids).toEqual(
      expect.arrayContaining([applied.deviceId, failing.deviceId]),
    );
    expect((await listed('settings=applied')).ids).not.toContain(drifting.deviceId);
    expect((await listed('commands=failed')).ids).toEqual([failing.deviceId]);
    expect(await remote()).toEqual({ settingsDrift: drift.total, failedCommands: 1 });

    // A failure older than the figure's days no longer counts.
    t.clock.advance(8 * 86_400_000);
    admin = await adminToken(t); // a week on, the session has ended
    expect((await listed('commands=failed')).total).toBe(0);
    expect((await remote()).failedCommands).toBe(0);
  });

  it('refuses an unknown value naming the filter', async () => {
    for (const [query, message] of [
      ['settings=sometimes', 'settings must be one of drift, applied'],
      ['commands=ok', 'commands must be failed'],
    ]) {
      const res = await t.injectAs(admin, { method: 'GET', url: `${apiPaths.machines}?${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(message);
    }
  });
});
