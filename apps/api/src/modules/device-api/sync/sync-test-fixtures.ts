import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import type { AccessLogItem, DoctorItem, PatientItem, TreatmentItem } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { appSessions, deviceCredentials } from '../../../db/schema/device-api.ts';
import { doctors, technicians } from '../../../db/schema/devices.ts';
import { roles } from '../../../db/schema/users.ts';
import { addDevice, deviceInject } from '../../../test/device-fixtures.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { digest, newSecret } from '../device-auth.ts';

/*
 * The records tests' machines and people. The machine is added through the console's route; its
 * credential and the app sessions are written as the identity side stores them (digests of
 * dvc_/aps_ secrets), so these tests exercise the records routes on their own. Doctors are
 * registered through the real POST appDoctors route by a technician.
 */

export type Machine = { deviceId: string; machineNumber: string; credential: string };
export type Person = { id: string; userId: number; session: string };

export async function machine(t: TestApp): Promise<Machine> {
  const device = await addDevice(t);
  const credential = newSecret('dvc');
  await t.database.db
    .insert(deviceCredentials)
    .values({ deviceId: device.deviceId, secretHash: digest(credential) });
  return { deviceId: device.deviceId, machineNumber: device.machineNumber, credential };
}

async function sessionFor(t: TestApp, m: Machine, who: { doctorId?: string; technicianId?: string }) {
  const access = newSecret('aps');
  const [credential] = await t.database.db
    .select({ id: deviceCredentials.id })
    .from(deviceCredentials)
    .where(eq(deviceCredentials.deviceId, m.deviceId));
  const hour = new Date(t.clock.now.getTime() + 3_600_000);
  await t.database.db.insert(appSessions).values({
    deviceId: m.deviceId,
    credentialId: credential!.id,
    ...who,
    accessHash: digest(access),
    accessExpiresAt: hour,
    refreshHash: digest(newSecret('apr')),
    refreshExpiresAt: hour,
  });
  return access;
}

export async function technician(t: TestApp, m: Machine): Promise<Person> {
  const [row] = await t.database.db
    .insert(technicians)
    .values({ deviceId: m.deviceId, userName: `tech-${randomUUID().slice(0, 8)}`, email: 'tech@example.com' })
    .returning({ id: technicians.id, userId: technicians.userId });
  return { ...row!, session: await sessionFor(t, m, { technicianId: row!.id }) };
}

/** The numeric id of the bootstrap's app role 'Doctor' (or of the admin role with type 'admin'). */
export async function roleNumber(t: TestApp, type: 'app' | 'admin') {
  const [row] = await t.database.db
    .select({ roleId: roles.roleId })
    .from(roles)
    .where(eq(roles.type, type))
    .limit(1);
  return row!.roleId;
}

const iso = (t: TestApp, offsetMs = 0) => new Date(t.clock.now.getTime() + offsetMs).toISOString();

const person = (t: TestApp, m: Machine) => ({
  id: randomUUID(),
  username: `user.${randomUUID().slice(0, 8)}`,
  nickName: 'Anna',
  email: 'anna@example.com',
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
  ...person(t, m),
  username: `dr.${randomUUID().slice(0, 8)}`,
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
  const [row] = await t.database.db
    .select({ id: doctors.id, userId: doctors.userId })
    .from(doctors)
    .where(eq(doctors.clientId, item.id));
  return { ...row!, session: await sessionFor(t, m, { doctorId: row!.id }) };
}

/** Patients registered by the doctor through the real route; returns the items sent. */
export async function patientsOf(t: TestApp, m: Machine, dr: Person, n = 1): Promise<PatientItem[]> {
  const items = Array.from({ length: n }, () => patientItem(t, m));
  const res = await call(t, m, { method: 'POST', url: apiPaths.appPatients, payload: { items } }, dr);
  if (res.json().data?.accepted !== n) throw new Error(`registering patients failed: ${res.body}`);
  return items;
}
