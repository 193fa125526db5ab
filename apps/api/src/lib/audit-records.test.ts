import { desc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { devices, patients } from '#api/db/schema/devices.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { fieldsFor, multipart } from '#api/modules/app-updates/app-updates-test-app.ts';
import { buildDemoApk } from '#api/modules/app-updates/zip-writer.ts';
import { addDevice, appRoleId } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { auditPlanOf } from './audit-records.ts';

/*
 * Decision 048: a write's audit row names the record it changed and the names of the fields it
 * changed, never their values; a list read of health data keeps the ids it returned, and the
 * record's access history lists that read.
 */

let t: TestApp;
let token: string;
let machine: { deviceId: string; machineNumber: string };
const patientIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  machine = await addDevice(t);
  // Five patients, one a minute apart: the list's newest-first order is known.
  const base = Date.parse('2026-11-01T10:00:00Z');
  for (let i = 0; i < 5; i++) {
    const [row] = await t.database.db
      .insert(patients)
      .values({
        deviceId: machine.deviceId,
        patientname: `Listed Patient ${i}`,
        email: `listed${i}@example.com`,
        phone: `55510000${i}0`,
        createTime: new Date(base + i * 60_000),
      })
      .returning({ id: patients.id });
    patientIds.push(row!.id);
  }
});
afterAll(() => t.close());

/** The access rows written since the row `after` (by id), newest first, every column. */
async function rowsSince(after: number) {
  await t.app.audit.flush();
  return t.database.db.select().from(accessLogs).where(gt(accessLogs.id, after)).orderBy(desc(accessLogs.id));
}
async function lastRowId() {
  await t.app.audit.flush();
  const [row] = await t.database.db
    .select({ id: accessLogs.id })
    .from(accessLogs)
    .orderBy(desc(accessLogs.id))
    .limit(1);
  return row?.id ?? 0;
}
const rowOf = (rows: Awaited<ReturnType<typeof rowsSince>>, resource: string) => {
  const row = rows.find((r) => r.resource === resource);
  if (!row) throw new Error(`no access row for ${resource}: ${rows.map((r) => r.resource).join(', ')}`);
  return row;
};

describe('what each route names, decided at registration', () => {
  it('names a record for every admin write', () => {
    const writes = t.app.registeredRoutes.filter(
      (r) => r.access === 'admin' && !['GET', 'HEAD', 'OPTIONS'].includes(r.method),
    );
    expect(writes.length).toBeGreaterThan(20);
    const unnamed = writes.filter((r) => !auditPlanOf(r.method, r.url, r.access)?.write);
    expect(unnamed.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('takes the record from the route, the admin or the answer', () => {
    const plan = (method: string, url: string) => auditPlanOf(method, url, 'admin')?.write;
    expect(plan('PUT', apiPaths.machine(':id'))).toEqual({ kind: 'device', id: 'param' });
    expect(plan('POST', apiPaths.machineAdd)).toEqual({ kind: 'device', id: 'answer' });
    expect(plan('PUT', apiPaths.role(':id'))).toEqual({ kind: 'role', id: 'param' });
    expect(plan('POST', apiPaths.users)).toEqual({ kind: 'user', id: 'answer' });
    expect(plan('PUT', apiPaths.userMachines(':id'))).toEqual({ kind: 'user', id: 'param' });
    expect(plan('PUT', apiPaths.profile)).toEqual({ kind: 'user', id: 'self' });
    expect(plan('POST', apiPaths.subscriptionAdd)).toEqual({ kind: 'subscription', id: 'answer' });
    expect(plan('POST', apiPaths.systemUpdates)).toEqual({ kind: 'app-update', id: 'answer' });
  });

  it('keeps the listed ids of every list of health data (permission patients.view)', () => {
    const lists = t.app.registeredRoutes.filter(
      (r) => r.permission === 'patients.view' && r.method === 'GET' && r.url.endsWith('/all'),
    );
    expect(lists.map((r) => r.url).sort()).toEqual(
      [apiPaths.doctorsAll, apiPaths.patientsAll, apiPaths.techniciansAll, apiPaths.treatmentsAll].sort(),
    );
    for (const r of lists) expect(auditPlanOf(r.method, r.url, r.access)?.listed, r.url).toBeDefined();
  });
});

describe("a write's audit row", () => {
  it('names the device and `status` for a status change, and no value', async () => {
    const before = await lastRowId();
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.machine(machine.deviceId),
      payload: { status: 1 },
    });
    expect(res.statusCode).toBe(200);
    const row = rowOf(await rowsSince(before), 'PUT /api/v1/admin/machine/:id');
    expect(row).toMatchObject({
      recordKind: 'device',
      recordId: machine.deviceId,
      machineNumber: machine.machineNumber,
      changedFields: ['status'],
      listedIds: null,
    });
  });

  it("names only the fields whose stored value differs when the whole form is sent, and none of the form's values", async () => {
    const [stored] = await t.database.db.select().from(devices).limit(1);
    const before = await lastRowId();
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.machine(machine.deviceId),
      payload: {
        machineNumber: machine.machineNumber,
        serialNumber: stored!.serialNumber,
        location: stored!.location,
        latitude: stored!.latitude,
        longitude: stored!.longitude,
        city: 'Trondheim-Audited',
        country: stored!.country,
        address: 'Kongens gate 99',
      },
    });
    expect(res.statusCode).toBe(200);
    const rows = await rowsSince(before);
    expect(rowOf(rows, 'PUT /api/v1/admin/machine/:id').changedFields).toEqual(['city', 'address']);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('Trondheim');
    expect(text).not.toContain('Kongens');
  });

  it("names the record a create answered, and the form's field names", async () => {
    const before = await lastRowId();
    const res = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.roles,
      payload: { roleName: 'Auditors of record', type: 'admin', permissions: ['logs.view'] },
    });
    expect(res.statusCode).toBe(201);
    const row = rowOf(await rowsSince(before), 'POST /api/v1/admin/roles');
    expect(row).toMatchObject({
      recordKind: 'role',
      recordId: res.json().data._id,
      changedFields: ['roleName', 'type', 'permissions'],
    });
    expect(JSON.stringify(row)).not.toContain('Auditors of record');
  });

  it("names a technician's record and the fields changed, never the personal values or the password (a write to health data)", async () => {
    const created = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.users,
      payload: {
        firstName: 'Hedda',
        lastName: 'Gabler',
        roleId: await appRoleId(t),
        userName: 'hedda.tech',
        email: 'hedda.tech@example.com',
        phone: '4790011223',
        password: 'Hedda-Secret-77',
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data._id as string;
    const before = await lastRowId();
    const changed = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.user(id),
      payload: {
        firstName: 'Hedda',
        lastName: 'Tesman',
        roleId: await appRoleId(t),
        userName: 'hedda.tech',
        email: 'hedda.tesman@example.com',
        phone: '4790099887',
        password: 'Ignored-Secret-88',
      },
    });
    expect(changed.statusCode).toBe(200);
    const rows = await rowsSince(before);
    const row = rowOf(rows, 'PUT /api/v1/admin/users/:id');
    expect(row.recordKind).toBe('user');
    expect(row.recordId).toBe(id);
    // The password the schema drops is no field the write set.
    expect(row.changedFields).toEqual(['firstName', 'lastName', 'roleId', 'userName', 'email', 'phone']);
    // Every column of every row the write left: no value it carried.
    for (const value of ['Tesman', 'hedda.tesman', '4790099887', 'Ignored-Secret-88', 'Hedda-Secret-77'])
      for (const r of rows)
        for (const column of Object.values(r)) expect(String(column)).not.toContain(value);
  });

  it('names a published app update and the fields its multipart form sent', async () => {
    const before = await lastRowId();
    const body = multipart(fieldsFor({ appName: 'com.example.audited' }), {
      name: 'audited.apk',
      data: buildDemoApk('com.example.audited', 1, 100),
    });
    // A release for every machine at once needs a step-up (decision 063).
    await t.stepUp(token);
    const res = await t.injectAs(token, { method: 'POST', url: apiPaths.systemUpdates, ...body });
    expect(res.statusCode, res.body).toBe(201);
    const row = rowOf(await rowsSince(before), 'POST /api/v1/admin/system/updates');
    expect(row).toMatchObject({
      recordKind: 'app-update',
      recordId: res.json().data._id,
      changedFields: ['appName', 'versionCode', 'versionName', 'remark', 'updateDesc', 'updateType', 'apk'],
    });
  });

  it('names no field of a refused write: a body the schema refused holds names the client made up', async () => {
    const before = await lastRowId();
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.machine(machine.deviceId),
      payload: { status: 2, hunter2SecretName: true },
    });
    expect(res.statusCode).toBe(400);
    const row = rowOf(await rowsSince(before), 'PUT /api/v1/admin/machine/:id');
    expect(row).toMatchObject({ changedFields: null, recordId: null });
  });
});

describe('a list read of health data', () => {
  it('keeps exactly the ids it returned, and the access history of a listed patient shows it', async () => {
    const before = await lastRowId();
    const res = await t.injectAs(token, {
      method: 'GET',
      url: `${apiPaths.patientsAll}?page=1&limit=2&machineNumber=${machine.machineNumber}`,
    });
    expect(res.statusCode).toBe(200);
    const returned = (res.json().data.patientData as { _id: string }[]).map((p) => p._id);
    expect(returned).toHaveLength(2);
    const row = rowOf(await rowsSince(before), 'GET /api/v1/admin/patient/all');
    expect(row).toMatchObject({ recordKind: 'patient', recordId: null, changedFields: null });
    expect(row.listedIds).toEqual(returned);

    const history = async (id: string) =>
      (
        await t.injectAs(token, {
          method: 'GET',
          url: `${apiPaths.patientAccessHistory(id)}?page=1&limit=10`,
        })
      ).json().data as { history: { _id: string; action: string; userEmail: string }[]; total: number };
    const listed = await history(returned[0]!);
    expect(listed.history).toContainEqual(
      expect.objectContaining({ _id: String(row.id), action: 'Listed', userEmail: 'admin@example.com' }),
    );
    // A patient the page did not return has no such entry.
    const notReturned = patientIds.find((id) => !returned.includes(id))!;
    expect((await history(notReturned)).history.map((h) => h._id)).not.toContain(String(row.id));
  });

  it('lists views, reveals and list reads newest first, and pages them', async () => {
    const id = patientIds[0]!;
    await t.injectAs(token, { method: 'GET', url: apiPaths.patient(id) });
    await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.patientReveal(id),
      payload: { reason: 'Billing' },
    });
    await t.injectAs(token, { method: 'GET', url: `${apiPaths.patientsAll}?page=1&limit=100` });
    await t.app.audit.flush();
    const page = async (n: number) =>
      (
        await t.injectAs(token, {
          method: 'GET',
          url: `${apiPaths.patientAccessHistory(id)}?page=${n}&limit=2`,
        })
      ).json().data as { history: { action: string }[]; total: number; totalPages: number };
    const first = await page(1);
    expect(first.history.map((h) => h.action)).toEqual(['Listed', 'Revealed']);
    expect(first.total).toBe(3);
    expect(first.totalPages).toBe(2);
    expect((await page(2)).history.map((h) => h.action)).toEqual(['Viewed']);
  });

  it('keeps the ids of a treatment list and of a doctor list', async () => {
    const before = await lastRowId();
    await t.injectAs(token, { method: 'GET', url: `${apiPaths.doctorsAll}?page=1&limit=10` });
    await t.injectAs(token, { method: 'GET', url: `${apiPaths.treatmentsAll}?page=1&limit=10` });
    const rows = await rowsSince(before);
    expect(rowOf(rows, 'GET /api/v1/admin/doctor/all')).toMatchObject({
      recordKind: 'doctor',
      listedIds: [],
    });
    expect(rowOf(rows, 'GET /api/v1/admin/treatement-records/all')).toMatchObject({
      recordKind: 'treatment',
      listedIds: [],
    });
  });
});
