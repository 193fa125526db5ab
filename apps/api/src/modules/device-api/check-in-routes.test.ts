import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { deviceApiMessages } from '@app/contract/device-api';
import { licencePaths } from '@app/contract/licences';
import { apiPaths } from '@app/contract/paths';
import { devices } from '#api/db/schema/devices.ts';
import {
  adminToken,
  deviceInject,
  enrolDevice,
  flushCheckIns,
  type EnrolledDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { createCheckIns } from './check-ins.ts';

let t: TestApp;
beforeAll(async () => {
  // 60 a minute: a burst of 20, then one a second.
  t = await createTestApp({ DEVICE_RATE_PER_MINUTE: '60' });
});
afterAll(() => t.close());

const heartbeat = (d: EnrolledDevice, payload: Record<string, unknown>) =>
  deviceInject(t, d.credential, { method: 'POST', url: apiPaths.appHeartbeat, payload });
const row = async (id: string) => (await t.database.db.select().from(devices).where(eq(devices.id, id)))[0]!;
const shown = async (id: string) =>
  (await t.injectAs(await adminToken(t), { method: 'GET', url: apiPaths.machine(id) })).json().data;

describe('POST appHeartbeat', () => {
  it('answers the server time, when to call again, and no commands when none wait', async () => {
    const d = await enrolDevice(t);
    const res = await heartbeat(d, { versionCode: 7, versionName: '1.7.0' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      serverTime: t.clock.now.toISOString(),
      nextHeartbeatSeconds: 300,
      licenceVersion: 1,
      settingsVersion: 0,
      commands: [],
    });
  });

  it("answers the machine's licence version, which grows when its licence changes (an exemption)", async () => {
    const d = await enrolDevice(t);
    const version = async () =>
      (await heartbeat(d, { versionCode: 7, versionName: '1.7.0' })).json().data.licenceVersion as number;
    const before = await version();
    const token = await t.stepUp(await adminToken(t));
    const exempted = await t.injectAs(token, {
      method: 'PUT',
      url: licencePaths.deviceExemption(d.deviceId),
      payload: {
        kind: 'loaner',
        reason: 'Loaner while theirs is repaired',
        until: new Date(t.clock.now.getTime() + 30 * 86_400_000).toISOString().slice(0, 10),
      },
    });
    expect(exempted.statusCode, exempted.body).toBe(200);
    const now = exempted.json().data.version as number;
    expect(now).toBeGreaterThan(before);
    // PGlite's notice arrives before the change returns; PostgreSQL's a moment after its commit.
    await expect.poll(version, { timeout: 5000, interval: 200 }).toBe(now);
  });

  it('learns of a licence changed outside the API (in SQL) through the database notice', async () => {
    const d = await enrolDevice(t);
    const version = async () =>
      (await heartbeat(d, { versionCode: 7, versionName: '1.7.0' })).json().data.licenceVersion as number;
    expect(await version()).toBe(1);
    await t.database.db.update(devices).set({ licenceVersion: 41 }).where(eq(devices.id, d.deviceId));
    await expect.poll(version, { timeout: 5000, interval: 200 }).toBe(41);
  });

  it('writes last seen, version and position within a flush, not before', async () => {
    const d = await enrolDevice(t);
    await flushCheckIns(t);
    t.clock.advance(5000);
    await heartbeat(d, { versionCode: 42, versionName: '2.3.0', latitude: 48.1, longitude: 11.5 });
    expect((await row(d.deviceId)).appVersionCode).toBeNull();
    await flushCheckIns(t);
    const r = await row(d.deviceId);
    expect(r).toMatchObject({
      appVersionCode: 42,
      appVersionName: '2.3.0',
      reportedLatitude: 48.1,
      reportedLongitude: 11.5,
    });
    expect(r.lastSeenAt?.toISOString()).toBe(t.clock.now.toISOString());
    expect(await shown(d.deviceId)).toMatchObject({
      lastSeenAt: t.clock.now.toISOString(),
      online: true,
      appVersionCode: 42,
      appVersionName: '2.3.0',
    });
  });

  it('marks the machine seen on any device call, keeping the version it reported', async () => {
    const d = await enrolDevice(t);
    await heartbeat(d, { versionCode: 3, versionName: '0.3' });
    await flushCheckIns(t);
    t.clock.advance(60_000);
    // A refused sign-in is still a call from the machine.
    await deviceInject(t, d.credential, {
      method: 'POST',
      url: apiPaths.appLogin,
      payload: { username: 'nobody', password: 'nothing' },
    });
    await flushCheckIns(t);
    const r = await row(d.deviceId);
    expect(r.lastSeenAt?.toISOString()).toBe(t.clock.now.toISOString());
    expect(r.appVersionCode).toBe(3);
  });

  it('names a bad field', async () => {
    const d = await enrolDevice(t);
    const res = await heartbeat(d, { versionCode: 1.5, versionName: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('versionCode must be a whole number');
    expect(res.json().msg).toContain('versionName is required');
    expect((await heartbeat(d, { versionCode: 1, versionName: 'x', latitude: 91 })).json().msg).toContain(
      'latitude must be at most 90',
    );
  });
});

describe('the check-in writer', () => {
  it('coalesces many calls into the newest per machine, and never moves a time backwards', async () => {
    const [d1, d2] = [await enrolDevice(t), await enrolDevice(t)];
    await flushCheckIns(t);
    const writer = createCheckIns({ db: t.database.db, flushIntervalMs: 60_000 });
    const base = t.clock.now.getTime() + 3_600_000;
    for (let i = 0; i < 500; i++) {
      writer.record(d1.deviceId, { at: new Date(base + i), versionCode: i });
      writer.record(d2.deviceId, { at: new Date(base + i) });
    }
    // Older news arriving late loses to what is already known.
    writer.record(d1.deviceId, { at: new Date(base - 10), versionCode: 1, versionName: 'late' });
    await writer.flush();
    const [r1, r2] = [await row(d1.deviceId), await row(d2.deviceId)];
    expect(r1.lastSeenAt?.getTime()).toBe(base + 499);
    expect(r1.appVersionCode).toBe(499);
    expect(r1.appVersionName).toBe('late');
    expect(r2.lastSeenAt?.getTime()).toBe(base + 499);
    writer.record(d2.deviceId, { at: new Date(base) });
    await writer.close();
    expect((await row(d2.deviceId)).lastSeenAt?.getTime()).toBe(base + 499);
  });
});

describe('per-machine rate limit', () => {
  it('answers 429 with Retry-After to one machine past its burst while another goes on', async () => {
    const [busy, calm] = [await enrolDevice(t), await enrolDevice(t)];
    const ping = { versionCode: 1, versionName: '1' };
    for (let i = 0; i < 20; i++) expect((await heartbeat(busy, ping)).statusCode).toBe(200);
    const refused = await heartbeat(busy, ping);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 429, msg: deviceApiMessages.rateLimited, data: null });
    expect(refused.headers['retry-after']).toBe('1');
    expect((await heartbeat(calm, ping)).statusCode).toBe(200);
    // 60 a minute: a second later there is room for one more.
    t.clock.advance(1000);
    expect((await heartbeat(busy, ping)).statusCode).toBe(200);
    expect((await heartbeat(busy, ping)).statusCode).toBe(429);
  });
});
