import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { doctors, patients } from '#api/db/schema/devices.ts';
import { verifyPassword } from '#api/lib/passwords.ts';
import { adminToken } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import {
  call,
  doctor,
  doctorItem,
  machine,
  patientItem,
  patientsOf,
  roleNumber,
  technician,
  type Machine,
  type Person,
} from './sync-test-fixtures.ts';

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

const post = (m: Machine, url: string, items: unknown[], who: Person) =>
  call(t, m, { method: 'POST', url, payload: { items } }, who);
const get = (m: Machine, url: string, who: Person) => call(t, m, { method: 'GET', url }, who);

describe('POST doctors', () => {
  it('registers doctors a technician sends, refusing each bad item with its field', async () => {
    const good = doctorItem(t, a, appRole, { username: 'dr.anna.schmidt' });
    const badPhone = doctorItem(t, a, appRole, { phonenumber: '12ab' });
    const adminRole = doctorItem(t, a, await roleNumber(t, 'admin'));
    const otherMachine = doctorItem(t, a, appRole, { machineNumber: b.machineNumber });
    const future = doctorItem(t, a, appRole, {
      createdAt: new Date(t.clock.now.getTime() + 3_600_000).toISOString(),
    });
    const res = await post(a, apiPaths.appDoctors, [good, badPhone, adminRole, otherMachine, future], techA);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      accepted: 1,
      refused: 4,
      results: [
        { id: good.id, status: 'accepted' },
        {
          id: badPhone.id,
          status: 'refused',
          reason: 'phonenumber: phonenumber must be 10 to 15 digits with an optional leading +',
        },
        { id: adminRole.id, status: 'refused', reason: `roleId: ${deviceApiMessages.roleNotApp}` },
        {
          id: otherMachine.id,
          status: 'refused',
          reason: `machineNumber: ${deviceApiMessages.machineMismatch}`,
        },
        { id: future.id, status: 'refused', reason: 'createdAt: time is in the future' },
      ],
    });
    const [row] = await t.database.db.select().from(doctors).where(eq(doctors.clientId, good.id));
    expect(row).toMatchObject({
      deviceId: a.deviceId,
      userName: 'dr.anna.schmidt',
      phonenumber: good.phonenumber,
      nickName: 'Anna',
      sex: 1,
      age: 41,
      city: 'Berlin',
      registeredBy: techA.id,
      status: 2,
    });
    expect(row!.createTime!.toISOString()).toBe(good.createdAt);
    expect(row!.receivedAt!.getTime()).toBe(t.clock.now.getTime());
    expect(await verifyPassword(row!.passwordHash!, good.password)).toBe(true);
  });

  it('answers a retry the same, stores a doubled id once, and refuses a user name already used', async () => {
    const item = doctorItem(t, a, appRole);
    const first = (await post(a, apiPaths.appDoctors, [item, { ...item }], techA)).json().data;
    expect(first).toMatchObject({ accepted: 2, refused: 0 });
    expect((await post(a, apiPaths.appDoctors, [item, { ...item }], techA)).json().data).toEqual(first);
    expect(await t.database.db.select().from(doctors).where(eq(doctors.clientId, item.id))).toHaveLength(1);

    const sameName = doctorItem(t, a, appRole, { username: item.username.toUpperCase() });
    const { data } = (await post(a, apiPaths.appDoctors, [sameName], techA)).json();
    expect(data.results[0]).toEqual({
      id: sameName.id,
      status: 'refused',
      reason: `username: ${deviceApiMessages.userNameTaken}`,
    });
    // Another machine may have a doctor of the same name.
    const onB = doctorItem(t, b, appRole, { username: item.username });
    const techB = await technician(t, b);
    expect((await post(b, apiPaths.appDoctors, [onB], techB)).json().data.accepted).toBe(1);
  });

  it('lets only a technician register doctors', async () => {
    const dr = await doctor(t, a, techA);
    const res = await post(a, apiPaths.appDoctors, [doctorItem(t, a, appRole)], dr);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(deviceApiMessages.onlyTechnicians);
  });

  it("refuses a session of machine A sent with machine B's credential", async () => {
    const res = await call(t, b, { method: 'POST', url: apiPaths.appDoctors, payload: { items: [] } }, techA);
    expect(res.statusCode).toBe(401);
  });
});

describe('POST patients', () => {
  it("registers a doctor's patients, refusing bad items with their field, idempotent by id", async () => {
    const dr = await doctor(t, a, techA);
    const good = patientItem(t, a, { username: 'Maria Rossi' });
    const badSex = { ...patientItem(t, a), sex: 5 };
    const unknownField = { ...patientItem(t, a), isAdmin: true };
    const items = [good, badSex, unknownField, { ...good }];
    const first = (await post(a, apiPaths.appPatients, items, dr)).json().data;
    expect(first.results).toEqual([
      { id: good.id, status: 'accepted' },
      { id: badSex.id, status: 'refused', reason: 'sex: sex must be 0, 1 or 2' },
      { id: unknownField.id, status: 'refused', reason: 'Unknown field: isAdmin' },
      { id: good.id, status: 'accepted' },
    ]);
    expect((await post(a, apiPaths.appPatients, items, dr)).json().data).toEqual(first);
    const rows = await t.database.db.select().from(patients).where(eq(patients.clientId, good.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      deviceId: a.deviceId,
      doctorId: dr.id,
      patientname: 'Maria Rossi',
      phone: good.phonenumber,
      address: good.address,
      country: 'Germany',
      latitude: good.lat,
      longitude: good.long,
    });
  });

  it('lets only a doctor register patients', async () => {
    const res = await post(a, apiPaths.appPatients, [patientItem(t, a)], techA);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(deviceApiMessages.onlyDoctors);
  });
});

describe('reads on the machine', () => {
  it('shows a doctor only their own patients, and a technician none', async () => {
    const [dr1, dr2] = [await doctor(t, a, techA), await doctor(t, a, techA)];
    const [mine] = await patientsOf(t, a, dr1);
    const [theirs] = await patientsOf(t, a, dr2);
    const list = (await get(a, apiPaths.appPatients, dr1)).json().data;
    expect(list.data.map((p: { clientId: string }) => p.clientId)).toEqual([mine!.id]);
    expect(list.total).toBe(1);
    expect(JSON.stringify(list)).not.toContain(theirs!.id);
    expect((await get(a, apiPaths.appPatients, techA)).statusCode).toBe(403);
  });

  it("lists the machine's doctors for a technician, and only themself for a doctor", async () => {
    const techB = await technician(t, b);
    const drB = await doctor(t, b, techB);
    const drA = await doctor(t, a, techA);
    const forTech = (await get(a, `${apiPaths.appDoctors}?limit=100`, techA)).json().data;
    const ids = forTech.data.map((d: { _id: string }) => d._id);
    expect(ids).toContain(drA.id);
    expect(ids).not.toContain(drB.id);
    expect(forTech.total).toBe(ids.length);
    const forDoctor = (await get(a, apiPaths.appDoctors, drA)).json().data;
    expect(forDoctor.data.map((d: { _id: string }) => d._id)).toEqual([drA.id]);
    // Machine B's lists hold none of machine A's people.
    const onB = (await get(b, `${apiPaths.appDoctors}?limit=100`, techB)).json().data;
    expect(onB.data.map((d: { _id: string }) => d._id)).toEqual(expect.not.arrayContaining([drA.id]));
  });

  it('refuses a bad page size with a 400 naming limit', async () => {
    const res = await get(a, `${apiPaths.appDoctors}?limit=1000`, techA);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/limit/);
  });
});

describe('the console', () => {
  it('lists the doctors and patients the machine registered', async () => {
    const dr = await doctor(t, a, techA);
    const [p] = await patientsOf(t, a, dr);
    const token = await adminToken(t);
    const drs = await t.injectAs(token, {
      method: 'GET',
      url: `${apiPaths.doctorsAll}?machineNumber=${a.machineNumber}&limit=100`,
    });
    expect(drs.statusCode).toBe(200);
    expect(drs.json().data.data.map((d: { _id: string }) => d._id)).toContain(dr.id);
    const pts = await t.injectAs(token, {
      method: 'GET',
      url: `${apiPaths.patientsAll}?machineNumber=${a.machineNumber}&limit=100`,
    });
    expect(pts.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(patients).where(eq(patients.clientId, p!.id));
    const shown = pts.json().data.patientData.find((x: { _id: string }) => x._id === row!.id);
    expect(shown).toMatchObject({ machineNumber: a.machineNumber, doctorid: dr.id });
  });
});
