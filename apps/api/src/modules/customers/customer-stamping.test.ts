import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerPaths, type Customer } from '@app/contract/customers';
import { apiPaths } from '@app/contract/paths';
import { doctors, patients } from '#api/db/schema/devices.ts';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { adminToken } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import {
  accessLogItem,
  call,
  doctor,
  machine,
  patientItem,
  patientsOf,
  treatmentItem,
  type Machine,
  type Person,
} from '../device-api/sync/sync-test-fixtures.ts';

/*
 * The stamping rule (issue 39 item 2, decision 087): every record a machine sends belongs to the
 * customer that held the machine when the record was made, and stays with it after the machine
 * moves, whenever it arrives (offline sync delivers old records late). Sent by the machine over the
 * device API's real routes; the database's trigger stamps them.
 */

let t: TestApp;
let token: string;
let m: Machine;
let a: Customer;
let b: Customer;

const hour = 3_600_000;
const at = (offsetMs: number) => new Date(t.clock.now.getTime() + offsetMs).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t);
  m = await machine(t);
  const add = async (name: string) =>
    (
      await t.injectAs(token, {
        method: 'POST',
        url: customerPaths.list,
        payload: { name: `${name} ${randomUUID().slice(0, 6)}`, country: 'Germany' },
      })
    ).json().data as Customer;
  [a, b] = [await add('Clinic A'), await add('Clinic B')];
});
afterAll(() => t.close());

const assign = async (customerId: string, from?: string) => {
  const res = await t.injectAs(await adminToken(t), {
    method: 'POST',
    url: customerPaths.machineAssignment(m.deviceId),
    payload: { customerId, ...(from ? { from } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const sendTreatments = async (who: Person, items: unknown[]) => {
  const res = await call(t, m, { method: 'POST', url: apiPaths.appTreatments, payload: { items } }, who);
  expect(res.json().data?.accepted, res.body).toBe(items.length);
};
const sendPatients = async (who: Person, items: unknown[]) => {
  const res = await call(t, m, { method: 'POST', url: apiPaths.appPatients, payload: { items } }, who);
  expect(res.json().data?.accepted, res.body).toBe(items.length);
};
const sendLogs = async (accessItems: unknown[], errorItems: unknown[]) => {
  for (const [url, items] of [
    [apiPaths.appAccessLogs, accessItems],
    [apiPaths.appErrorLogs, errorItems],
  ] as const) {
    const res = await call(t, m, { method: 'POST', url, payload: { items } });
    expect(res.json().data?.accepted, res.body).toBe(items.length);
  }
};
const errorItem = (time: string) => ({
  id: randomUUID(),
  resource: 'POST /api/v1/app/treatments',
  functionName: 'syncTreatments',
  message: 'Upload timed out',
  utcTime: time,
});

const treatmentOwners = async (ids: string[]) =>
  (
    await t.database.db
      .select({ id: treatmentRecords.clientId, customerId: treatmentRecords.customerId })
      .from(treatmentRecords)
      .where(inArray(treatmentRecords.clientId, ids))
  )
    .sort((x, y) => ids.indexOf(x.id!) - ids.indexOf(y.id!))
    .map((r) => r.customerId);
const patientOwners = async (ids: string[]) =>
  (
    await t.database.db
      .select({ id: patients.clientId, customerId: patients.customerId })
      .from(patients)
      .where(inArray(patients.clientId, ids))
  )
    .sort((x, y) => ids.indexOf(x.id!) - ids.indexOf(y.id!))
    .map((r) => r.customerId);
const logOwner = async (table: typeof accessLogs | typeof errorLogs, clientId: string) =>
  (await t.database.db.select({ c: table.customerId }).from(table).where(eq(table.clientId, clientId)))[0]?.c;

describe('records belong to who held the machine when they were made', () => {
  it('keeps A its records after the move to B, also those synced after it, and gives B the new ones', async () => {
    // At A since ten days ago: a doctor, a patient and a treatment made and synced there.
    await assign(a._id, at(-240 * hour));
    const drA = await doctor(t, m);
    const [doctorA] = await t.database.db
      .select({ c: doctors.customerId })
      .from(doctors)
      .where(eq(doctors.id, drA.id));
    expect(doctorA!.c).toBe(a._id);
    const [p1] = await patientsOf(t, m, drA);
    const before = treatmentItem(t, p1!.id, {
      treatmentStartTime: at(-50 * 60_000),
      treatmentEndTime: at(-40 * 60_000),
    });
    await sendTreatments(drA, [before]);
    expect(await treatmentOwners([before.id])).toEqual([a._id]);

    // The machine moves to B now; it was offline: what it made at A arrives only after the move.
    await assign(b._id);
    const late = treatmentItem(t, p1!.id, {
      treatmentStartTime: at(-30 * 60_000),
      treatmentEndTime: at(-20 * 60_000),
    });
    const latePatient = patientItem(t, m, { createdAt: at(-5 * 60_000) });
    await sendTreatments(drA, [late]);
    await sendPatients(drA, [latePatient]);
    const lateLog = accessLogItem(t, { time: at(-2 * 60_000) });
    const lateError = errorItem(at(-3 * 60_000));
    await sendLogs([lateLog], [lateError]);
    expect(await treatmentOwners([before.id, late.id])).toEqual([a._id, a._id]);
    expect(await patientOwners([p1!.id, latePatient.id])).toEqual([a._id, a._id]);
    expect(await logOwner(accessLogs, lateLog.id)).toBe(a._id);
    expect(await logOwner(errorLogs, lateError.id)).toBe(a._id);

    // An hour on, at B: new people and records are B's.
    t.clock.advance(hour);
    const drB = await doctor(t, m);
    const [p2] = await patientsOf(t, m, drB);
    const after = treatmentItem(t, p2!.id, {
      treatmentStartTime: at(-30 * 60_000),
      treatmentEndTime: at(-20 * 60_000),
    });
    await sendTreatments(drB, [after]);
    const newLog = accessLogItem(t, { time: at(-60_000) });
    const newError = errorItem(at(-60_000));
    await sendLogs([newLog], [newError]);
    expect(await treatmentOwners([before.id, late.id, after.id])).toEqual([a._id, a._id, b._id]);
    expect(await patientOwners([p1!.id, latePatient.id, p2!.id])).toEqual([a._id, a._id, b._id]);
    expect(await logOwner(accessLogs, newLog.id)).toBe(b._id);
    expect(await logOwner(errorLogs, newError.id)).toBe(b._id);
    const [doctorB] = await t.database.db
      .select({ c: doctors.customerId })
      .from(doctors)
      .where(eq(doctors.id, drB.id));
    expect(doctorB!.c).toBe(b._id);

    // A's activity lists the machine's rows made while it held it, B's those made since.
    const activityOf = async (id: string) =>
      (await t.injectAs(await adminToken(t), { method: 'GET', url: customerPaths.activity(id) }))
        .json()
        .data.activity.map((r: { resource: string }) => r.resource) as string[];
    expect(await activityOf(a._id)).toContain(lateLog.resource);
    expect(await activityOf(b._id)).toContain(newLog.resource);

    // A move recorded late (the machine went back to A 45 minutes ago): what it made since follows.
    await assign(a._id, at(-45 * 60_000));
    expect(await treatmentOwners([before.id, late.id, after.id])).toEqual([a._id, a._id, a._id]);
    expect(await patientOwners([p1!.id, latePatient.id, p2!.id])).toEqual([a._id, a._id, a._id]);
  });
});
