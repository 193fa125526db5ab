import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import type { AppSession } from '@app/contract/device-api';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { accessLogs } from '#api/db/schema/logs.ts';
import { users } from '#api/db/schema/users.ts';
import {
  createDoctor,
  createTechnician,
  deviceInject,
  enrolDevice,
  signInOnDevice,
  type EnrolledDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { firstAdminRoleId } from '#api/test/admin-role.ts';

let t: TestApp;
let a: EnrolledDevice;
let b: EnrolledDevice;
beforeAll(async () => {
  t = await createTestApp();
  a = await enrolDevice(t);
  b = await enrolDevice(t);
});
afterAll(() => t.close());

const login = (device: EnrolledDevice, username: string, password: string) =>
  deviceInject(t, device.credential, {
    method: 'POST',
    url: apiPaths.appLogin,
    payload: { username, password },
  });
const me = (device: EnrolledDevice, session: AppSession | string) =>
  deviceInject(t, device.credential, { method: 'GET', url: apiPaths.appMe }, session);
const refresh = (device: EnrolledDevice, refreshToken: string) =>
  deviceInject(t, device.credential, {
    method: 'POST',
    url: apiPaths.appTokenRefresh,
    payload: { refreshToken },
  });

describe('POST appLogin', () => {
  it('signs a doctor of this machine in, whatever the case of the user name', async () => {
    const doctor = await createDoctor(t, a.deviceId, { userName: 'Dr.Meyer' });
    const session = await signInOnDevice(t, a.credential, 'dr.MEYER', doctor.password);
    expect(session).toMatchObject({
      accessExpiresIn: 900,
      refreshExpiresIn: 30 * 24 * 3600,
      user: { kind: 'doctor', _id: doctor.id, userId: doctor.userId, userName: 'Dr.Meyer' },
    });
    expect(session.accessToken).toMatch(/^aps_/);
    expect(session.refreshToken).toMatch(/^apr_/);
    const res = await me(a, session);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      user: { kind: 'doctor', _id: doctor.id, userId: doctor.userId, userName: 'Dr.Meyer' },
      device: { deviceId: a.deviceId, machineNumber: a.machineNumber, serialNumber: a.serialNumber },
    });
  });

  it('signs a technician in on a machine they are assigned to, and nowhere else', async () => {
    const tech = await createTechnician(t, [a.deviceId]);
    const session = await signInOnDevice(t, a.credential, tech.userName.toUpperCase(), tech.password);
    expect(session.user).toMatchObject({ kind: 'technician', userName: tech.userName });
    expect((await me(a, session)).json().data.user.kind).toBe('technician');
    const elsewhere = await login(b, tech.userName, tech.password);
    expect(elsewhere.statusCode).toBe(401);
    expect(elsewhere.json().msg).toBe(deviceApiMessages.wrongCredentials);
  });

  it('refuses a wrong password, an unknown name and a switched-off doctor with one message', async () => {
    const doctor = await createDoctor(t, a.deviceId);
    const off = await createDoctor(t, a.deviceId, { status: 1 });
    for (const [username, password] of [
      [doctor.userName, 'wrong-password'],
      ['nobody-here', 'whatever'],
      [off.userName, off.password],
    ] as const) {
      const res = await login(a, username, password);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 401, msg: deviceApiMessages.wrongCredentials, data: null });
    }
  });

  it('names a missing field', async () => {
    const res = await deviceInject(t, a.credential, {
      method: 'POST',
      url: apiPaths.appLogin,
      payload: { username: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('password is required');
  });

  it('throttles wrong tries per user name on a machine (429 with Retry-After), not on another machine', async () => {
    const doctor = await createDoctor(t, a.deviceId);
    for (let i = 0; i < 5; i++) expect((await login(a, doctor.userName, `wrong-${i}`)).statusCode).toBe(401);
    const blocked = await login(a, doctor.userName, doctor.password);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The same name elsewhere is another key; so is another name here.
    expect((await login(b, doctor.userName, 'wrong')).statusCode).toBe(401);
    const other = await createDoctor(t, a.deviceId);
    expect((await login(a, other.userName, other.password)).statusCode).toBe(200);
  });

  it('records sign-ins as security events with the machine number and the person', async () => {
    const doctor = await createDoctor(t, b.deviceId);
    await signInOnDevice(t, b.credential, doctor.userName, doctor.password);
    await login(b, doctor.userName, 'wrong-password');
    const rows = await t.database.db
      .select({ event: accessLogs.event, userId: accessLogs.userId, email: accessLogs.userEmail })
      .from(accessLogs)
      .where(and(eq(accessLogs.machineNumber, b.machineNumber), like(accessLogs.event, 'app.login.%')));
    expect(rows).toEqual(
      expect.arrayContaining([
        { event: 'app.login.success', userId: String(doctor.userId), email: doctor.email },
        { event: 'app.login.failure', userId: String(doctor.userId), email: doctor.email },
      ]),
    );
  });
});

describe('sessions', () => {
  it('are bound to their machine: another machine’s credential cannot use them', async () => {
    const doctor = await createDoctor(t, a.deviceId);
    const session = await signInOnDevice(t, a.credential, doctor.userName, doctor.password);
    const res = await me(b, session);
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe(deviceApiMessages.sessionInvalid);
    expect((await refresh(b, session.refreshToken)).statusCode).toBe(401);
    expect((await me(a, session)).statusCode).toBe(200);
  });

  it('need the X-App-Session header on app-user routes', async () => {
    const res = await me(a, '');
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe(deviceApiMessages.sessionMissing);
  });

  it('rotate on refresh: the new pair works, the old refresh and access tokens are dead', async () => {
    const doctor = await createDoctor(t, a.deviceId);
    const first = await signInOnDevice(t, a.credential, doctor.userName, doctor.password);
    const res = await refresh(a, first.refreshToken);
    expect(res.statusCode).toBe(200);
    const second = res.json().data as AppSession;
    expect(second.user).toMatchObject({ kind: 'doctor', _id: doctor.id });
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await me(a, second)).statusCode).toBe(200);
    expect((await me(a, first)).statusCode).toBe(401);
    const replay = await refresh(a, first.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().msg).toBe(deviceApiMessages.refreshInvalid);
  });

  it('expire: the access token after 15 minutes, the refresh token after 30 days', async () => {
    const doctor = await createDoctor(t, a.deviceId);
    const session = await signInOnDevice(t, a.credential, doctor.userName, doctor.password);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await me(a, session)).statusCode).toBe(401);
    const renewed = await refresh(a, session.refreshToken);
    expect(renewed.statusCode).toBe(200);
    t.clock.advance(30 * 24 * 3600_000 + 1000);
    expect((await refresh(a, renewed.json().data.refreshToken)).statusCode).toBe(401);
  });

  it('end at logout', async () => {
    const doctor = await createDoctor(t, a.deviceId);
    const session = await signInOnDevice(t, a.credential, doctor.userName, doctor.password);
    const out = await deviceInject(t, a.credential, { method: 'POST', url: apiPaths.appLogout }, session);
    expect(out.statusCode).toBe(200);
    expect((await me(a, session)).statusCode).toBe(401);
    expect((await refresh(a, session.refreshToken)).statusCode).toBe(401);
  });

  it('end for a technician whose account no longer has an app role, on the next call and at refresh', async () => {
    const tech = await createTechnician(t, [a.deviceId]);
    const session = await signInOnDevice(t, a.credential, tech.userName, tech.password);
    expect((await me(a, session)).statusCode).toBe(200);
    const roleId = await firstAdminRoleId(t.database.db);
    await t.database.db.update(users).set({ roleId }).where(eq(users.id, tech.userId));
    const res = await me(a, session);
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe(deviceApiMessages.sessionInvalid);
    expect((await refresh(a, session.refreshToken)).statusCode).toBe(401);
  });
});
