import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiPaths } from '@app/contract/paths';
import { devices } from '#api/db/schema/devices.ts';
import {
  addDevice,
  adminToken,
  deviceInject,
  enrolDevice,
  flushCheckIns,
  type EnrolledDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { missingId } from './device-test-requests.ts';

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t.close());

const heartbeat = async (d: EnrolledDevice, versionCode: number, versionName: string) => {
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode, versionName },
  });
  expect(res.statusCode, res.body).toBe(200);
  await flushCheckIns(t);
};
const history = async (id: string, query = '') =>
  t.injectAs(await adminToken(t), { method: 'GET', url: `${apiPaths.machineAppVersions(id)}${query}` });

describe('GET /api/v1/admin/machine/{id}/app-versions', () => {
  it('lists each version change the heartbeats reported, newest first, with when it was first seen', async () => {
    const d = await enrolDevice(t);
    expect((await history(d.deviceId)).json().data).toEqual({
      versions: [],
      totalPages: 1,
      total: 0,
      page: 1,
      limit: 10,
    });
    const firstSeen = t.clock.now.toISOString();
    await heartbeat(d, 10, '1.0.0');
    // The same version again is no change.
    t.clock.advance(60_000);
    await heartbeat(d, 10, '1.0.0');
    t.clock.advance(60_000);
    const updatedAt = t.clock.now.toISOString();
    await heartbeat(d, 11, '1.1.0');

    const res = await history(d.deviceId);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      versions: [
        { versionCode: 11, versionName: '1.1.0', firstSeenAt: updatedAt },
        { versionCode: 10, versionName: '1.0.0', firstSeenAt: firstSeen },
      ],
      totalPages: 1,
      total: 2,
      page: 1,
      limit: 10,
    });
    const paged = (await history(d.deviceId, '?page=2&limit=1')).json().data;
    expect(paged).toMatchObject({ totalPages: 2, total: 2, page: 2 });
    expect(paged.versions).toEqual([{ versionCode: 10, versionName: '1.0.0', firstSeenAt: firstSeen }]);
  });

  it('records a version written by any path, not only the check-in batch', async () => {
    const { deviceId } = await addDevice(t);
    const seen = new Date('2025-06-01T08:00:00.000Z');
    // A fix by hand, the demo data: the trigger on devices catches it too.
    await t.database.db
      .update(devices)
      .set({ appVersionCode: 7, appVersionName: '0.7', lastSeenAt: seen })
      .where(eq(devices.id, deviceId));
    await t.database.db.update(devices).set({ city: 'Hamburg' }).where(eq(devices.id, deviceId));
    expect((await history(deviceId)).json().data.versions).toEqual([
      { versionCode: 7, versionName: '0.7', firstSeenAt: seen.toISOString() },
    ]);
  });

  it('keeps each machine to its own history', async () => {
    const [a, b] = [await enrolDevice(t), await enrolDevice(t)];
    await heartbeat(a, 20, '2.0');
    await heartbeat(b, 30, '3.0');
    expect(
      (await history(a.deviceId)).json().data.versions.map((v: { versionCode: number }) => v.versionCode),
    ).toEqual([20]);
    expect(
      (await history(b.deviceId)).json().data.versions.map((v: { versionCode: number }) => v.versionCode),
    ).toEqual([30]);
  });

  it('answers an unknown device with 404, a malformed id with 400, and no token with 401', async () => {
    expect((await history(missingId)).json()).toEqual({ code: 404, msg: 'Device not found', data: null });
    const bad = await history('nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('Invalid device id');
    const anonymous = await t.app.inject({ method: 'GET', url: apiPaths.machineAppVersions(missingId) });
    expect(anonymous.statusCode).toBe(401);
  });
});
