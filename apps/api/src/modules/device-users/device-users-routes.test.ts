import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
const ids = { deviceA: '', deviceB: '', drA1: '', drA2: '', drB1: '', techA: '', patients: [] as string[] };
const missingId = '00000000-0000-4000-8000-000000000000';
const base = Date.UTC(2025, 2, 1);
const at = (minutes: number) => new Date(base + minutes * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  const db = t.database.db;
  const place = {
    location: 'Clinic',
    latitude: 1,
    longitude: 2,
    city: 'Oslo',
    country: 'Norway',
    address: 'Main St 1',
  };
  const [a, b] = await db
    .insert(devices)
    .values([
      { machineNumber: 'MA-1', serialNumber: 'SA-1', ...place },
      { machineNumber: 'MB-1', serialNumber: 'SB-1', ...place },
    ])
    .returning({ id: devices.id });
  ids.deviceA = a!.id;
  ids.deviceB = b!.id;
  const drs = await db
    .insert(doctors)
    .values([
      {
        deviceId: a!.id,
        userName: 'Dr. Older',
        email: 'older@clinic.test',
        phonenumber: '+4712345678',
        address: 'Ward 1',
        createTime: at(1),
      },
      {
        deviceId: a!.id,
        userName: 'Dr. Newer',
        email: 'newer@clinic.test',
        phonenumber: null,
        address: null,
        status: 1,
        createTime: at(2),
      },
      { deviceId: b!.id, userName: 'Dr. Other', email: 'other@clinic.test', createTime: at(3) },
    ])
    .returning({ id: doctors.id });
  [ids.drA1, ids.drA2, ids.drB1] = drs.map((d) => d.id) as [string, string, string];
  const [tech] = await db
    .insert(technicians)
    .values([
      {
        deviceId: a!.id,
        userName: 'Tech One',
        email: 'tech@clinic.test',
        phonenumber: '5551234567',
        createTime: at(4),
      },
    ])
    .returning({ id: technicians.id });
  ids.techA = tech!.id;
  const pts = await db
    .insert(patients)
    .values(
      Array.from({ length: 12 }, (_, i) => ({
        deviceId: i < 11 ? a!.id : b!.id,
        doctorId: i < 11 ? (i % 2 === 0 ? ids.drA1 : ids.drA2) : ids.drB1,
        patientname: `Patient ${String(i).padStart(2, '0')}`,
        email: `p${i}@mail.test`,
        phone: i === 0 ? null : `+4790000${String(i).padStart(3, '0')}`,
        createTime: at(10 + i),
      })),
    )
    .returning({ id: patients.id });
  ids.patients = pts.map((p) => p.id);
});
afterAll(() => t.close());

const getJson = async (url: string, query: Record<string, string | number> = {}) => {
  const res = await t.injectAs(token, {
    method: 'GET',
    url,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  return { status: res.statusCode, body: res.json() };
};

describe('doctors', () => {
  it('lists the doctors of a device, newest first, with data and totalPages', async () => {
    const { status, body } = await getJson('/api/v1/admin/doctor/all', { machineNumber: 'ma-1' });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ totalPages: 1, total: 2, page: 1, limit: 10 });
    expect(body.data.data.map((d: { userName: string }) => d.userName)).toEqual(['Dr. Newer', 'Dr. Older']);
    expect(body.data.data[1]).toEqual({
      _id: ids.drA1,
      userId: expect.any(Number),
      userName: 'Dr. Older',
      // Contact data comes masked (decision 045; contact-reveal-routes.test.ts reveals it).
      email: 'o•••@clinic.test',
      phonenumber: '••••••5678',
      address: '••••••',
      status: 2,
      createTime: at(1).toISOString(),
      machineNumber: 'MA-1',
      contactMasked: true,
    });
  });

  it('lists every doctor without a machine number and none for an unknown one', async () => {
    expect((await getJson('/api/v1/admin/doctor/all')).body.data.total).toBe(3);
    const unknown = await getJson('/api/v1/admin/doctor/all', { machineNumber: 'NOPE' });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toMatchObject({ data: [], total: 0, totalPages: 1 });
  });

  it('reads one doctor, 404 for an unknown id and 400 for a malformed one', async () => {
    const one = await getJson(`/api/v1/admin/doctor/${ids.drA2}`);
    expect(one.body.data).toMatchObject({
      userName: 'Dr. Newer',
      status: 1,
      phonenumber: null,
      address: null,
      machineNumber: 'MA-1',
    });
    expect((await getJson(`/api/v1/admin/doctor/${missingId}`)).body).toEqual({
      code: 404,
      msg: 'Doctor not found',
      data: null,
    });
    const bad = await getJson('/api/v1/admin/doctor/42');
    expect(bad).toEqual({
      status: 400,
      body: { code: 400, msg: 'Invalid doctor id', data: expect.anything() },
    });
  });
});

describe('patients', () => {
  it('lists the patients of a device in pages with patientData and totalPages', async () => {
    const first = await getJson('/api/v1/admin/patient/all', { machineNumber: 'MA-1', limit: 10 });
    expect(first.body.data).toMatchObject({ totalPages: 2, total: 11, page: 1, limit: 10 });
    expect(first.body.data.patientData[0]).toEqual({
      _id: ids.patients[10],
      userId: expect.any(Number),
      patientname: 'Patient 10',
      email: 'p•••@mail.test',
      phone: '••••••0010',
      createTime: at(20).toISOString(),
      doctorid: ids.drA1,
      doctorName: 'Dr. Older',
      machineNumber: 'MA-1',
      contactMasked: true,
    });
    const second = await getJson('/api/v1/admin/patient/all', { machineNumber: 'MA-1', page: 2 });
    expect(second.body.data.patientData.map((p: { patientname: string }) => p.patientname)).toEqual([
      'Patient 00',
    ]);
  });

  it("filters by the doctor's id", async () => {
    const { body } = await getJson('/api/v1/admin/patient/all', { doctorId: ids.drA2, limit: 25 });
    expect(body.data.total).toBe(5);
    expect(body.data.patientData.every((p: { doctorid: string }) => p.doctorid === ids.drA2)).toBe(true);
    const none = await getJson('/api/v1/admin/patient/all', { doctorId: missingId });
    expect(none.body.data).toMatchObject({ patientData: [], total: 0 });
  });

  it('reads one patient, with 404 and 400 for unknown and malformed ids', async () => {
    expect((await getJson(`/api/v1/admin/patient/${ids.patients[0]}`)).body.data).toMatchObject({
      patientname: 'Patient 00',
      phone: null,
    });
    expect((await getJson(`/api/v1/admin/patient/${missingId}`)).body.msg).toBe('Patient not found');
    expect((await getJson('/api/v1/admin/patient/abc')).body.msg).toBe('Invalid patient id');
  });

  it('names a malformed doctorId, page or limit in a 400', async () => {
    expect(await getJson('/api/v1/admin/patient/all', { doctorId: 'x' })).toMatchObject({
      status: 400,
      body: { msg: 'doctorId must be a valid id' },
    });
    expect((await getJson('/api/v1/admin/patient/all', { page: -1 })).body.msg).toBe(
      'page must be at least 1',
    );
    expect((await getJson('/api/v1/admin/doctor/all', { limit: 0 })).body.msg).toBe(
      'limit must be at least 1',
    );
    expect((await getJson('/api/v1/admin/technicians/all', { machineNumber: 'x'.repeat(65) })).body.msg).toBe(
      'machineNumber must be at most 64 characters',
    );
  });
});

describe('technicians', () => {
  it('lists the technicians of a device and reads one', async () => {
    const { body } = await getJson('/api/v1/admin/technicians/all', { machineNumber: 'MA-1' });
    expect(body.data).toMatchObject({ total: 1, totalPages: 1 });
    expect(body.data.data[0]).toEqual({
      _id: ids.techA,
      userId: expect.any(Number),
      userName: 'Tech One',
      email: 'tech@clinic.test',
      phonenumber: '5551234567',
      status: 2,
      createTime: at(4).toISOString(),
      machineNumber: 'MA-1',
    });
    expect(
      (await getJson('/api/v1/admin/technicians/all', { machineNumber: 'MB-1' })).body.data.data,
    ).toEqual([]);
    expect((await getJson(`/api/v1/admin/technicians/${ids.techA}`)).body.data.userName).toBe('Tech One');
    expect((await getJson(`/api/v1/admin/technicians/${missingId}`)).body).toEqual({
      code: 404,
      msg: 'Technician not found',
      data: null,
    });
    expect((await getJson('/api/v1/admin/technicians/1 OR 1=1')).status).toBe(400);
  });

  it('gives doctors, patients and technicians distinct numeric user ids', async () => {
    const all = [
      ...(await getJson('/api/v1/admin/doctor/all', { limit: 100 })).body.data.data,
      ...(await getJson('/api/v1/admin/technicians/all', { limit: 100 })).body.data.data,
      ...(await getJson('/api/v1/admin/patient/all', { limit: 100 })).body.data.patientData,
    ].map((u: { userId: number }) => u.userId);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('authentication', () => {
  it('refuses every device-user route without a token', async () => {
    const urls = [
      'doctor/all',
      `doctor/${ids.drA1}`,
      'patient/all',
      `patient/${ids.patients[0]}`,
      'technicians/all',
      `technicians/${ids.techA}`,
    ];
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin/${url}` });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
