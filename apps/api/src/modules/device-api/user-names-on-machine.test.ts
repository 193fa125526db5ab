import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { userMessages } from '@app/contract/users';
import { deviceUserNames, doctors, technicians } from '#api/db/schema/devices.ts';
import { users } from '#api/db/schema/users.ts';
import { hashPassword } from '#api/lib/passwords.ts';
import {
  adminToken,
  createDoctor,
  createTechnician,
  deviceInject,
  signInOnDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import {
  call,
  doctorItem,
  machine,
  roleNumber,
  technician,
  type Machine,
  type Person,
} from './sync/sync-test-fixtures.ts';

/*
 * A user name belongs to one person of a machine, doctor or technician (issue 32, item 7): before,
 * a technician could register a doctor under another technician's name, and sign-in found the
 * doctor first, locking the technician out of the machine for good.
 */

let t: TestApp;
let a: Machine;
let b: Machine;
let techA: Person;
let appRole: number;

beforeAll(async () => {
  t = await createTestApp();
  [a, b] = [await machine(t), await machine(t)];
  techA = await technician(t, a);
  appRole = await roleNumber(t, 'app');
});
afterAll(() => t.close());

const signIn = (m: Machine, username: string, password: string) =>
  deviceInject(t, m.credential, { method: 'POST', url: apiPaths.appLogin, payload: { username, password } });
const registerDoctors = (m: Machine, items: unknown[], by: Person) =>
  call(t, m, { method: 'POST', url: apiPaths.appDoctors, payload: { items } }, by);
const assignMachines = async (userId: string, deviceIds: string[]) =>
  t.injectAs(await adminToken(t), {
    method: 'PUT',
    url: apiPaths.userMachines(userId),
    payload: { deviceIds },
  });

describe('user names on a machine', () => {
  it("refuses a doctor registered under a technician's user name (in any case), and registers the rest", async () => {
    const other = await createTechnician(t, [a.deviceId]);
    const clash = doctorItem(t, a, appRole, { username: other.userName.toUpperCase() });
    const fine = doctorItem(t, a, appRole);
    const res = await registerDoctors(a, [clash, fine], techA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      accepted: 1,
      refused: 1,
      results: [
        { id: clash.id, status: 'refused', reason: `username: ${deviceApiMessages.userNameTaken}` },
        { id: fine.id, status: 'accepted' },
      ],
    });
    // The technician still signs in as themself; the same name is free on another machine.
    const session = await signInOnDevice(t, a.credential, other.userName, other.password);
    expect(session.user).toMatchObject({ kind: 'technician', userName: other.userName });
    const techB = await technician(t, b);
    const onB = doctorItem(t, b, appRole, { username: other.userName });
    expect((await registerDoctors(b, [onB], techB)).json().data.accepted).toBe(1);
  });

  it('refuses assigning a technician to a machine where a doctor has their user name, naming the machine', async () => {
    const dr = await createDoctor(t, a.deviceId, { userName: `Dr.Clash${Date.now()}` });
    const tech = await createTechnician(t, []);
    // A console user named like the doctor (console user names are unique only among console users).
    await t.database.db
      .update(users)
      .set({ userName: dr.userName.toLowerCase() })
      .where(eq(users.id, tech.userId));
    const res = await assignMachines(tech.userId, [b.deviceId, a.deviceId]);
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe(
      deviceApiMessages.userNameTakenOnMachines(dr.userName.toLowerCase(), [a.machineNumber]),
    );
    expect(res.json().msg).toMatch(/^deviceIds: /);
    const rows = await t.database.db
      .select({ deviceId: technicians.deviceId })
      .from(technicians)
      .where(eq(technicians.accountId, tech.userId));
    expect(rows).toEqual([]);
    // The doctor keeps signing in; the technician can be assigned where the name is free.
    expect((await signIn(a, dr.userName, dr.password)).json().data.user.kind).toBe('doctor');
    expect((await assignMachines(tech.userId, [b.deviceId])).statusCode).toBe(200);
  });

  it("refuses renaming a technician's account to a name a doctor holds on one of their machines", async () => {
    const tech = await createTechnician(t, [a.deviceId, b.deviceId]);
    const dr = await createDoctor(t, b.deviceId);
    const token = await adminToken(t);
    const current = (await t.injectAs(token, { method: 'GET', url: apiPaths.user(tech.userId) })).json().data;
    const edit = (userName: string) =>
      t.injectAs(token, {
        method: 'PUT',
        url: apiPaths.user(tech.userId),
        payload: {
          firstName: current.firstName,
          lastName: current.lastName,
          userName,
          email: current.email,
          phone: current.phone,
          roleId: current.roleId,
        },
      });
    const refused = await edit(dr.userName.toUpperCase());
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(userMessages.userNameTaken);
    expect((await signIn(b, dr.userName, dr.password)).json().data.user.kind).toBe('doctor');

    // A free name follows the technician onto every machine they are assigned to.
    const renamed = `${tech.userName}.new`;
    expect((await edit(renamed)).statusCode).toBe(200);
    for (const m of [a, b]) {
      const session = await signInOnDevice(t, m.credential, renamed, tech.password);
      expect(session.user).toMatchObject({ kind: 'technician', userName: renamed });
    }
    expect((await signIn(a, tech.userName, tech.password)).statusCode).toBe(401);
  });

  it('is enforced by the database whichever way a row is written, so sign-in never has two to choose from', async () => {
    const tech = await createTechnician(t, [a.deviceId]);
    const doctorNamed = async (userName: string) =>
      t.database.db.insert(doctors).values({
        deviceId: a.deviceId,
        userName,
        email: `${userName.toLowerCase()}@example.com`,
        passwordHash: await hashPassword('Doctor-Passw0rd'),
      });
    await expect(doctorNamed(tech.userName.toUpperCase())).rejects.toThrow();
    const dr = await createDoctor(t, a.deviceId);
    await expect(doctorNamed(dr.userName)).rejects.toThrow();
    // A doctor without a password cannot sign in, so holds no name.
    await t.database.db.insert(doctors).values({
      deviceId: a.deviceId,
      userName: tech.userName,
      email: 'no-password@example.com',
    });
    const held = await t.database.db
      .select({ doctorId: deviceUserNames.doctorId, technicianId: deviceUserNames.technicianId })
      .from(deviceUserNames)
      .where(
        and(
          eq(deviceUserNames.deviceId, a.deviceId),
          sql`${deviceUserNames.nameKey} = lower(${tech.userName})`,
        ),
      );
    expect(held).toEqual([{ doctorId: null, technicianId: expect.any(String) }]);
    expect((await signIn(a, tech.userName, tech.password)).json().data.user.kind).toBe('technician');
  });
});
