import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import type { AccessLogItem, DoctorItem, PatientItem, TreatmentItem } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { roles } from '#api/db/schema/users.ts';
import {
  createTechnician,
  deviceInject,
  enrolDevice,
  signInOnDevice,
  type EnrolledDevice,
} from '#api/test/device-fixtures.ts';
import type { TestApp } from '#api/test/test-app.ts';

/*
 * The records tests' machines and people, made through the real routes (device-fixtures.ts): the
 * machine enrols with a code the console issued, the technician is a console user of an app role
 * assigned to it, and both the technician and the doctors sign in on the machine.
 */

export type Machine = EnrolledDevice;
export type Person = { id: string; userId: number; email: string; session: string };

export const machine = (t: TestApp): Promise<Machine> => enrolDevice(t);

const signedIn = async (
  t: TestApp,
  m: Machine,
  who: { userName: string; password: string; email: string },
): Promise<Person> => {
  const session = await signInOnDevice(t, m.credential, who.userName, who.password);
  return {
    id: session.user._id,
    userId: session.user.userId,
    email: who.email,
    session: session.accessToken,
  };
};

export async function technician(t: TestApp, m: Machine): Promise<Person> {
  const tech = await createTechnician(t, [m.deviceId]);
  return signedIn(t, m, tech);
}

/** The numeric id of the bootstrap's app role 'Doctor' (or of the admin role with type 'admin'). */
export async function roleNumber(t: TestApp, type: 'app' | 'admin') {
  const [row] = await t.database.db
    .select({ roleId: roles.roleId })
    .from(roles)
    .where(eq(roles.type, type))
    // The bootstrap's role, numbered first; a test's own roles of the type come after.
    .orderBy(roles.roleId)
    .limit(1);
  return row!.roleId;
}

const iso = (t: TestApp, offsetMs = 0) => new Date(t.clock.now.getTime() + offsetMs).toISOString();

const person = (t: TestApp, m: Machine, username = `user.${randomUUID().slice(0, 8)}`) => ({
  id: randomUUID(),
  username,
  nickName: 'Anna',
  // One address per person: a doctor's sign-in is logged with theirs, a patient's never may be.
  email: `${username}@example.com`,
  sex: 1,
  age: 41,
  phonenumber: '+491701234567',
  machineNumber: m.machineNumber,
  lat: 52.52,
  long: 13.4,
  address: 'Unter den Linden 1',
  city: 'Berlin',
  state: 'Berlin',
  country: 'Germany',
  createdAt: iso(t, -60_000),
});

export const doctorItem = (
  t: TestApp,
  m: Machine,
  roleId: number,
  over: Partial<DoctorItem> = {},
): DoctorItem => ({
  ...person(t, m, `dr.${randomUUID().slice(0, 8)}`),
  password: 'Doctor-Passw0rd',
  roleId,
  ...over,
});

export const patientItem = (t: TestApp, m: Machine, over: Partial<PatientItem> = {}): PatientItem => ({
  ...person(t, m),
  ...over,
});

export const treatmentItem = (
  t: TestApp,
  patientId: string,
  over: Partial<TreatmentItem> = {},
): TreatmentItem => ({
  id: randomUUID(),
  patientId,
  treatmentDevice: 'ShockWave S1',
  treatmentPlan: 'Tennis elbow, 4 sessions',
  treatmentStartTime: iso(t, -30 * 60_000),
  treatmentEndTime: iso(t, -10 * 60_000),
  treatmentDuration: 20,
  treatmentEnergy: 0.2,
  totalEnergyOutput: 400,
  treatmentImages: [],
  ...over,
});

export const accessLogItem = (t: TestApp, over: Partial<AccessLogItem> = {}): AccessLogItem => ({
  id: randomUUID(),
  resource: 'GET /api/v1/app/patients',
  time: iso(t, -60_000),
  ...over,
});

/** A call as the machine, with the person's session when given. */
export const call = (t: TestApp, m: Machine, options: InjectOptions, who?: Person) =>
  deviceInject(t, m.credential, options, who?.session);

/** A doctor registered through the real route by a technician of the machine, and signed in. */
export async function doctor(t: TestApp, m: Machine, tech?: Person): Promise<Person> {
  const by = tech ?? (await technician(t, m));
  const item = doctorItem(t, m, await roleNumber(t, 'app'));
  const res = await call(t, m, { method: 'POST', url: apiPaths.appDoctors, payload: { items: [item] } }, by);
  if (res.json().data?.accepted !== 1) throw new Error(`registering a doctor failed: ${res.body}`);
  return signedIn(t, m, { userName: item.username, password: item.password, email: item.email });
}

/** Patients registered by the doctor through the real route; returns the items sent. */
export async function patientsOf(t: TestApp, m: Machine, dr: Person, n = 1): Promise<PatientItem[]> {
  const items = Array.from({ length: n }, () => patientItem(t, m));
  const res = await call(t, m, { method: 'POST', url: apiPaths.appPatients, payload: { items } }, dr);
  if (res.json().data?.accepted !== n) throw new Error(`registering patients failed: ${res.body}`);
  return items;
}
