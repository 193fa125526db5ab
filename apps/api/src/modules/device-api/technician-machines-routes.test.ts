import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { technicians } from '#api/db/schema/devices.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import {
  addDevice,
  adminToken,
  createTechnician,
  deviceInject,
  enrolDevice,
  signInOnDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = async (userId: string) =>
  t.injectAs(await adminToken(t), { method: 'GET', url: apiPaths.userMachines(userId) });
const put = async (userId: string, deviceIds: unknown) =>
  t.injectAs(await adminToken(t), {
    method: 'PUT',
    url: apiPaths.userMachines(userId),
    payload: { deviceIds },
  });
const missingId = '00000000-0000-4000-8000-000000000000';

describe('technicians’ machines', () => {
  it('assigns machines, lists them, and replaces the set', async () => {
    const [m1, m2, m3] = [await addDevice(t), await addDevice(t), await addDevice(t)];
    const tech = await createTechnician(t, []);
    expect((await get(tech.userId)).json().data).toEqual({ machines: [] });

    const res = await put(tech.userId, [m1.deviceId, m2.deviceId, m2.deviceId]);
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(deviceApiMessages.assignedMachines);
    const listed = (await get(tech.userId)).json().data.machines;
    expect(listed.map((m: { deviceId: string }) => m.deviceId).sort()).toEqual(
      [m1.deviceId, m2.deviceId].sort(),
    );
    expect(listed[0]).toMatchObject({ machineNumber: expect.any(String), serialNumber: expect.any(String) });
    expect(listed[0].assignedAt).not.toBeNull();

    await put(tech.userId, [m2.deviceId, m3.deviceId]);
    const rows = await t.database.db
      .select({ deviceId: technicians.deviceId, userName: technicians.userName, email: technicians.email })
      .from(technicians)
      .where(eq(technicians.accountId, tech.userId));
    expect(rows.map((r) => r.deviceId).sort()).toEqual([m2.deviceId, m3.deviceId].sort());
    expect(rows[0]).toMatchObject({ userName: tech.userName, email: tech.email });

    await put(tech.userId, []);
    expect((await get(tech.userId)).json().data.machines).toEqual([]);
  });

  it('ends the technician’s sessions on a machine taken away', async () => {
    const [kept, taken] = [await enrolDevice(t), await enrolDevice(t)];
    const tech = await createTechnician(t, [kept.deviceId, taken.deviceId]);
    const onKept = await signInOnDevice(t, kept.credential, tech.userName, tech.password);
    const onTaken = await signInOnDevice(t, taken.credential, tech.userName, tech.password);
    await put(tech.userId, [kept.deviceId]);
    const me = (credential: string, session: typeof onKept) =>
      deviceInject(t, credential, { method: 'GET', url: apiPaths.appMe }, session);
    expect((await me(taken.credential, onTaken)).statusCode).toBe(401);
    expect((await me(kept.credential, onKept)).statusCode).toBe(200);
    const again = await deviceInject(t, taken.credential, {
      method: 'POST',
      url: apiPaths.appLogin,
      payload: { username: tech.userName, password: tech.password },
    });
    expect(again.statusCode).toBe(401);
  });

  it('refuses a user whose role is not of type app, an unknown user and unknown machines', async () => {
    const { deviceId } = await addDevice(t);
    const admins = await t.injectAs(await adminToken(t), { method: 'GET', url: apiPaths.usersAll });
    const adminUser = (
      admins.json().data.users as Array<{ _id: string; role: { type: string } | null }>
    ).find((u) => u.role?.type === 'admin')!;
    const notApp = await put(adminUser._id, [deviceId]);
    expect(notApp.statusCode).toBe(400);
    expect(notApp.json().msg).toBe(deviceApiMessages.notAppUser);

    const unknownUser = await put(missingId, [deviceId]);
    expect(unknownUser.statusCode).toBe(404);
    expect(unknownUser.json().msg).toBe('User not found');
    expect((await get(missingId)).statusCode).toBe(404);

    const tech = await createTechnician(t, []);
    const unknownDevice = await put(tech.userId, [deviceId, missingId]);
    expect(unknownDevice.statusCode).toBe(400);
    expect(unknownDevice.json().msg).toContain(missingId);
    expect(unknownDevice.json().msg).toMatch(/^deviceIds/);
    expect((await get(tech.userId)).json().data.machines).toEqual([]);

    const malformed = await put(tech.userId, ['not-a-uuid']);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().msg).toContain('deviceIds must be a UUID');
  });

  it('is in the audit trail as the admin’s request', async () => {
    await createTechnician(t, [(await addDevice(t)).deviceId]);
    const rows = await t.database.db
      .select({ email: accessLogs.userEmail, status: accessLogs.statusCode })
      .from(accessLogs)
      .where(eq(accessLogs.resource, 'PUT /api/v1/admin/users/:id/machines'));
    expect(rows).toContainEqual({ email: 'admin@example.com', status: 200 });
  });
});
