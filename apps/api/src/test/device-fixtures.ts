import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppSession } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { doctors } from '../db/schema/devices.ts';
import { hashPassword } from '../lib/passwords.ts';
import '../modules/device-api/device-gate.ts';
import type { TestApp } from './test-app.ts';

/*
 * Helpers for the device API's tests (identity and records alike): an enrolled machine, calls as
 * that machine, a technician assigned to machines, a person signed in on a machine. Everything
 * goes through the real routes, so a fixture breaks when the feature does.
 */

const adminTokens = new WeakMap<TestApp, { token: Promise<string>; usedAt: number }>();
/**
 * The console admin's token for this test app. One sign-in per app (sign-ins are argon2 checks
 * and throttled per address), renewed when the test clock has moved far enough (a test that
 * advances it by hours) for the session's idle limit to have ended it.
 */
export const adminToken = (t: TestApp): Promise<string> => {
  const at = t.clock.now.getTime();
  const held = adminTokens.get(t);
  if (held && Math.abs(at - held.usedAt) < 10 * 60_000) {
    held.usedAt = at;
    return held.token;
  }
  const token = t.login();
  adminTokens.set(t, { token, usedAt: at });
  return token;
};

const expectStatus = (res: LightMyRequestResponse, status: number, what: string) => {
  if (res.statusCode !== status) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
  return res.json() as { data: unknown };
};

const hex = (n = 4) => randomBytes(n).toString('hex');

export type EnrolledDevice = {
  deviceId: string;
  machineNumber: string;
  serialNumber: string;
  credential: string;
};

/** A valid Add Device form with its own machine and serial number, changed by `over`. */
export const deviceForm = (over: Record<string, unknown> = {}) => ({
  machineNumber: `M-${hex()}`,
  serialNumber: `SN-${hex()}`,
  location: 'Clinic North',
  latitude: 52.52,
  longitude: 13.405,
  city: 'Berlin',
  country: 'Germany',
  address: 'Unter den Linden 1',
  ...over,
});

/** A device added through the console (a fresh one with unique numbers). */
export async function addDevice(t: TestApp, over: Record<string, unknown> = {}) {
  const res = await t.injectAs(await adminToken(t), {
    method: 'POST',
    url: apiPaths.machineAdd,
    payload: deviceForm(over),
  });
  const { data } = expectStatus(res, 201, 'adding a device') as {
    data: { _id: string; machineNumber: string; serialNumber: string };
  };
  return { deviceId: data._id, machineNumber: data.machineNumber, serialNumber: data.serialNumber };
}

/** Issues an enrolment code for the device through the console's route; answers the code as shown. */
export async function issueEnrolmentCode(t: TestApp, deviceId: string): Promise<string> {
  const res = await t.injectAs(await adminToken(t), {
    method: 'POST',
    url: apiPaths.machineEnrolmentCode(deviceId),
  });
  return (expectStatus(res, 200, 'issuing an enrolment code') as { data: { code: string } }).data.code;
}

/**
 * An enrolled machine: adds a device when no id is given, issues a code as an admin and enrols
 * through the machine's route. Enrolling an already enrolled device replaces its credential.
 */
export async function enrolDevice(t: TestApp, deviceId?: string): Promise<EnrolledDevice> {
  const id = deviceId ?? (await addDevice(t)).deviceId;
  const code = await issueEnrolmentCode(t, id);
  const res = await t.app.inject({ method: 'POST', url: apiPaths.appEnrol, payload: { code } });
  const { data } = expectStatus(res, 200, 'enrolling') as {
    data: { deviceId: string; machineNumber: string; serialNumber: string; credential: string };
  };
  return data;
}

/** inject() as the machine (`Authorization: Device <credential>`), and as a person on it when a session is given. */
export function deviceInject(
  t: TestApp,
  credential: string,
  options: InjectOptions,
  appSession?: AppSession | string,
): Promise<LightMyRequestResponse> {
  const session = typeof appSession === 'string' ? appSession : appSession?.accessToken;
  return t.app.inject({
    ...options,
    headers: {
      ...options.headers,
      authorization: `Device ${credential}`,
      ...(session ? { 'x-app-session': session } : {}),
    },
  });
}

export type Technician = { userName: string; password: string; userId: string; email: string };

/** Creates an app role (once per test app). */
const appRoles = new WeakMap<TestApp, Promise<string>>();
export const appRoleId = (t: TestApp): Promise<string> => {
  let id = appRoles.get(t);
  if (!id) {
    id = (async () => {
      const res = await t.injectAs(await adminToken(t), {
        method: 'POST',
        url: apiPaths.roles,
        payload: { roleName: `Technicians ${hex()}`, type: 'app' },
      });
      return (expectStatus(res, 201, 'creating an app role') as { data: { _id: string } }).data._id;
    })();
    appRoles.set(t, id);
  }
  return id;
};

/** A console user of an app role (a technician) assigned to the given machines. */
export async function createTechnician(t: TestApp, deviceIds: string[]): Promise<Technician> {
  const token = await adminToken(t);
  const userName = `tech${hex()}`;
  const password = `Tech-${hex(6)}`;
  const email = `${userName}@example.com`;
  const created = await t.injectAs(token, {
    method: 'POST',
    url: apiPaths.users,
    payload: {
      firstName: 'Tess',
      lastName: 'Technician',
      roleId: await appRoleId(t),
      userName,
      email,
      phone: '0123456789',
      password,
    },
  });
  const userId = (expectStatus(created, 201, 'creating a technician') as { data: { _id: string } }).data._id;
  const assigned = await t.injectAs(token, {
    method: 'PUT',
    url: apiPaths.userMachines(userId),
    payload: { deviceIds },
  });
  expectStatus(assigned, 200, 'assigning machines');
  return { userName, password, userId, email };
}

/** Signs a doctor or technician in on the machine; throws unless it succeeds. */
export async function signInOnDevice(
  t: TestApp,
  credential: string,
  userName: string,
  password: string,
): Promise<AppSession> {
  const res = await deviceInject(t, credential, {
    method: 'POST',
    url: apiPaths.appLogin,
    payload: { username: userName, password },
  });
  return (expectStatus(res, 200, 'signing in on the device') as { data: AppSession }).data;
}

/**
 * A doctor who may sign in on the machine, written straight to the table (the records half
 * registers doctors through the app's batch route; identity tests need one without it).
 */
export async function createDoctor(
  t: TestApp,
  deviceId: string,
  over: { userName?: string; password?: string; status?: number } = {},
): Promise<{ id: string; userId: number; userName: string; password: string; email: string }> {
  const userName = over.userName ?? `dr${hex()}`;
  const password = over.password ?? `Doc-${hex(6)}`;
  const email = `${userName.toLowerCase()}@example.com`;
  const [row] = await t.database.db
    .insert(doctors)
    .values({
      deviceId,
      userName,
      email,
      passwordHash: await hashPassword(password),
      status: over.status ?? 2,
    })
    .returning({ id: doctors.id, userId: doctors.userId });
  return { id: row!.id, userId: row!.userId, userName, password, email };
}

/** Writes the coalesced last-seen times now (they are otherwise written about once a second). */
export const flushCheckIns = (t: TestApp) => t.app.deviceGate.checkIns.flush();
