import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { apiPaths } from '@app/contract/paths';
import { deviceApiMessages } from '@app/contract/device-api';
import { enrolmentCodes } from '#api/db/schema/device-api.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import {
  addDevice,
  adminToken,
  createDoctor,
  deviceInject,
  enrolDevice,
  issueEnrolmentCode,
  signInOnDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const status = async (id: string) =>
  (await t.injectAs(await adminToken(t), { method: 'GET', url: apiPaths.machineEnrolment(id) })).json().data;
const enrol = (code: string) => t.app.inject({ method: 'POST', url: apiPaths.appEnrol, payload: { code } });
/** Revoking needs a fresh step-up (decision 046; its own test: auth/step-up.test.ts). */
const revoke = async (id: string) =>
  t.injectAs(await t.stepUp(await adminToken(t)), {
    method: 'POST',
    url: apiPaths.machineEnrolmentRevoke(id),
  });
/** A device call that needs nothing but the credential. */
const heartbeat = (credential: string) =>
  deviceInject(t, credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 1, versionName: '1.0.0' },
  });
const missingId = '00000000-0000-4000-8000-000000000000';

describe('enrolment codes (console)', () => {
  it('issues a code shown once as XXXXX-XXXXX with a QR code, stored only as an HMAC', async () => {
    const { deviceId } = await addDevice(t);
    expect(await status(deviceId)).toMatchObject({ enrolled: false, pendingCodeExpiresAt: null });
    const res = await t.injectAs(await adminToken(t), {
      method: 'POST',
      url: apiPaths.machineEnrolmentCode(deviceId),
    });
    expect(res.statusCode).toBe(200);
    const { code, expiresAt, qrSvg } = res.json().data;
    expect(res.json().msg).toBe(deviceApiMessages.codeIssued);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(new Date(expiresAt).getTime() - t.clock.now.getTime()).toBe(24 * 3600_000);
    expect(qrSvg).toContain('<svg');
    const after = await status(deviceId);
    expect(after).toMatchObject({ enrolled: false, pendingCodeExpiresAt: expiresAt });
    expect(JSON.stringify(after)).not.toContain(code);
    const rows = await t.database.db
      .select()
      .from(enrolmentCodes)
      .where(eq(enrolmentCodes.deviceId, deviceId));
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(code.replace('-', ''));
  });

  it('answers 404 for an unknown device and 400 for a malformed id', async () => {
    const res = await t.injectAs(await adminToken(t), {
      method: 'POST',
      url: apiPaths.machineEnrolmentCode(missingId),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('Device not found');
    expect(
      (await t.injectAs(await adminToken(t), { method: 'GET', url: apiPaths.machineEnrolment(missingId) }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.injectAs(await adminToken(t), { method: 'GET', url: apiPaths.machineEnrolment('nope') }))
        .statusCode,
    ).toBe(400);
  });
});

describe('POST appEnrol', () => {
  it('trades a code for a credential that works, once', async () => {
    const { deviceId, machineNumber } = await addDevice(t);
    const code = await issueEnrolmentCode(t, deviceId);
    const res = await enrol(code);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ deviceId, machineNumber });
    expect(data.credential).toMatch(/^dvc_[A-Za-z0-9_-]{43}$/);
    expect((await heartbeat(data.credential)).statusCode).toBe(200);
    expect(await status(deviceId)).toMatchObject({
      enrolled: true,
      pendingCodeExpiresAt: null,
      revokedAt: null,
    });

    const again = await enrol(code);
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe(deviceApiMessages.codeInvalid);
  });

  it('accepts the code typed in lower case, without the dash or with spaces', async () => {
    for (const typed of [
      (c: string) => c.toLowerCase(),
      (c: string) => c.replace('-', ''),
      (c: string) => ` ${c.replace('-', ' ')} `,
    ]) {
      const { deviceId } = await addDevice(t);
      const code = await issueEnrolmentCode(t, deviceId);
      const res = await enrol(typed(code));
      expect(res.statusCode, typed(code)).toBe(200);
    }
  });

  it('refuses an expired code, a voided one and a made-up one with the same answer', async () => {
    const { deviceId } = await addDevice(t);
    const older = await issueEnrolmentCode(t, deviceId);
    const newer = await issueEnrolmentCode(t, deviceId);
    // Past the day (by a second, so no log row's time equals the expiry shown in an answer).
    t.clock.advance(24 * 3600_000 + 1000);
    for (const code of [older, newer, 'ZZZZZ-ZZZZZ', 'not a code at all']) {
      const res = await enrol(code);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 400, msg: deviceApiMessages.codeInvalid, data: null });
    }
    expect(await status(deviceId)).toMatchObject({ enrolled: false, pendingCodeExpiresAt: null });
  });

  it('a voided code stays dead even before it expires', async () => {
    const { deviceId } = await addDevice(t);
    const older = await issueEnrolmentCode(t, deviceId);
    const newer = await issueEnrolmentCode(t, deviceId);
    expect((await enrol(older)).statusCode).toBe(400);
    expect((await enrol(newer)).statusCode).toBe(200);
  });

  it('names the missing code', async () => {
    const res = await t.app.inject({ method: 'POST', url: apiPaths.appEnrol, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(deviceApiMessages.codeRequired);
  });
});

describe('re-enrolment and revocation', () => {
  it('re-enrolling replaces the credential: the old one and its sessions die', async () => {
    const first = await enrolDevice(t);
    const doctor = await createDoctor(t, first.deviceId);
    const session = await signInOnDevice(t, first.credential, doctor.userName, doctor.password);
    // A code issued while enrolled leaves the live credential alone until it is used.
    const code = await issueEnrolmentCode(t, first.deviceId);
    expect((await heartbeat(first.credential)).statusCode).toBe(200);
    const second = (await enrol(code)).json().data;
    expect(second.credential).not.toBe(first.credential);
    const old = await heartbeat(first.credential);
    expect(old.statusCode).toBe(401);
    expect(old.json().msg).toBe(deviceApiMessages.credentialInvalid);
    expect((await heartbeat(second.credential)).statusCode).toBe(200);
    const me = await deviceInject(t, second.credential, { method: 'GET', url: apiPaths.appMe }, session);
    expect(me.statusCode).toBe(401);
  });

  it('revoking ends the credential and every app session, and voids a waiting code', async () => {
    const device = await enrolDevice(t);
    const doctor = await createDoctor(t, device.deviceId);
    const session = await signInOnDevice(t, device.credential, doctor.userName, doctor.password);
    const waiting = await issueEnrolmentCode(t, device.deviceId);
    const res = await revoke(device.deviceId);
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(deviceApiMessages.revoked);
    expect((await heartbeat(device.credential)).statusCode).toBe(401);
    expect((await enrol(waiting)).statusCode).toBe(400);
    const st = await status(device.deviceId);
    expect(st).toMatchObject({ enrolled: false, enrolledAt: null, pendingCodeExpiresAt: null });
    expect(st.revokedAt).not.toBeNull();
    // A new enrolment brings the machine back, but not the old session.
    const back = await enrolDevice(t, device.deviceId);
    const me = await deviceInject(t, back.credential, { method: 'GET', url: apiPaths.appMe }, session);
    expect(me.statusCode).toBe(401);

    const nothing = await revoke((await addDevice(t)).deviceId);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().msg).toBe(deviceApiMessages.notEnrolled);
    expect((await revoke(missingId)).statusCode).toBe(404);
  });
});

describe('who may call what', () => {
  it('refuses an admin bearer token on device routes and a device credential on admin routes', async () => {
    const device = await enrolDevice(t);
    const asAdmin = await t.injectAs(await adminToken(t), {
      method: 'POST',
      url: apiPaths.appHeartbeat,
      payload: { versionCode: 1, versionName: '1' },
    });
    expect(asAdmin.statusCode).toBe(401);
    expect(asAdmin.json().msg).toBe(deviceApiMessages.credentialMissing);
    const asDevice = await deviceInject(t, device.credential, { method: 'GET', url: apiPaths.machines });
    expect(asDevice.statusCode).toBe(401);
    const forged = await deviceInject(t, `dvc_${'A'.repeat(43)}`, {
      method: 'POST',
      url: apiPaths.appHeartbeat,
      payload: { versionCode: 1, versionName: '1' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().msg).toBe(deviceApiMessages.credentialInvalid);
  });
});

describe('audit trail', () => {
  it('records code issue, enrolment and revocation as security events with the machine number', async () => {
    const { deviceId, machineNumber } = await addDevice(t);
    await enrolDevice(t, deviceId);
    await enrol('ZZZZZ-ZZZZ0');
    await revoke(deviceId);
    const rows = await t.database.db
      .select({ event: accessLogs.event, userEmail: accessLogs.userEmail })
      .from(accessLogs)
      .where(and(eq(accessLogs.machineNumber, machineNumber), like(accessLogs.event, 'device.%')));
    expect(rows.map((r) => r.event).sort()).toEqual([
      'device.enrol.success',
      'device.enrolment-code.success',
      'device.revoke.success',
    ]);
    expect(rows.find((r) => r.event === 'device.revoke.success')?.userEmail).toBe('admin@example.com');
    const failed = await t.database.db
      .select({ id: accessLogs.id })
      .from(accessLogs)
      .where(eq(accessLogs.event, 'device.enrol.failure'));
    expect(failed.length).toBeGreaterThan(0);
  });
});
