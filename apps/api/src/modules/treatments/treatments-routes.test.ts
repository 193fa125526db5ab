import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, doctors, patients } from '#api/db/schema/devices.ts';
import { treatmentImages, treatmentRecords } from '#api/db/schema/treatments.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
const ids = { dr1: '', dr2: '', patient: '', treatments: [] as string[] };
const missingId = '00000000-0000-4000-8000-000000000000';
const base = Date.UTC(2025, 4, 1, 8);
const at = (minutes: number) => new Date(base + minutes * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  const db = t.database.db;
  const place = {
    location: 'Clinic',
    latitude: 1,
    longitude: 2,
    city: 'Rome',
    country: 'Italy',
    address: 'Via 1',
  };
  const [a, b] = await db
    .insert(devices)
    .values([
      { machineNumber: 'TA-1', serialNumber: 'TSA-1', ...place },
      { machineNumber: 'TB-1', serialNumber: 'TSB-1', ...place },
    ])
    .returning({ id: devices.id });
  const [d1, d2] = await db
    .insert(doctors)
    .values([
      { deviceId: a!.id, userName: 'Dr. Rossi', email: 'rossi@clinic.test' },
      { deviceId: b!.id, userName: 'Dr. Bianchi', email: 'bianchi@clinic.test' },
    ])
    .returning({ id: doctors.id });
  ids.dr1 = d1!.id;
  ids.dr2 = d2!.id;
  const [p] = await db
    .insert(patients)
    .values({ deviceId: a!.id, doctorId: d1!.id, patientname: 'Maria Verdi', email: 'maria@mail.test' })
    .returning({ id: patients.id });
  ids.patient = p!.id;
  const rows = await db
    .insert(treatmentRecords)
    .values([
      {
        deviceId: a!.id,
        doctorId: d1!.id,
        patientId: p!.id,
        userName: 'Maria Verdi',
        treatmentDevice: 'ShockWave S1',
        treatmentPlan: 'Knee 100% plan',
        treatmentStartTime: at(0),
        treatmentEndTime: at(30),
        treatmentDuration: 30,
        treatmentEnergy: 0.25,
        totalEnergyOutput: 512.5,
        createdAt: at(30),
      },
      {
        deviceId: a!.id,
        doctorId: d1!.id,
        patientId: null,
        userName: 'Luca Neri',
        treatmentDevice: 'ShockWave S1',
        treatmentPlan: 'Shoulder',
        treatmentStartTime: null,
        treatmentEndTime: null,
        treatmentDuration: null,
        treatmentEnergy: null,
        totalEnergyOutput: null,
        createdAt: at(60),
      },
      {
        deviceId: b!.id,
        doctorId: d2!.id,
        patientId: null,
        userName: 'Anna Blu',
        treatmentDevice: 'LaserPro',
        treatmentPlan: 'Back',
        createdAt: at(90),
      },
    ])
    .returning({ id: treatmentRecords.id });
  ids.treatments = rows.map((r) => r.id);
  await db.insert(treatmentImages).values([
    { treatmentId: ids.treatments[0]!, url: 'data:image/svg+xml;base64,PHN2Zy8+', position: 1 },
    { treatmentId: ids.treatments[0]!, url: 'data:image/svg+xml;base64,PHN2ZyAvPg==', position: 0 },
  ]);
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
const names = async (query: Record<string, string | number>) => {
  const { status, body } = await getJson('/api/v1/admin/treatement-records/all', query);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data.data.map((r: { userName: string }) => r.userName);
};

describe('GET /api/v1/admin/treatement-records/all', () => {
  it('lists treatments newest first with data and total_pages', async () => {
    const { body } = await getJson('/api/v1/admin/treatement-records/all');
    expect(body.data).toMatchObject({ total_pages: 1, total: 3, page: 1, limit: 10 });
    expect(body.data.data.map((r: { userName: string }) => r.userName)).toEqual([
      'Anna Blu',
      'Luca Neri',
      'Maria Verdi',
    ]);
    expect(body.data.data[2]).toEqual({
      _id: ids.treatments[0],
      userName: 'Maria Verdi',
      treatmentDevice: 'ShockWave S1',
      treatmentPlan: 'Knee 100% plan',
      treatmentStartTime: at(0).toISOString(),
      treatmentEndTime: at(30).toISOString(),
      treatmentDuration: 30,
      treatmentEnergy: 0.25,
      totalEnergyOutput: 512.5,
      machineNumber: 'TA-1',
      doctorId: ids.dr1,
      doctorName: 'Dr. Rossi',
      patientId: ids.patient,
      createdAt: at(30).toISOString(),
    });
  });

  it('filters by machine number, doctor and patient', async () => {
    expect(await names({ machineNumber: 'ta-1' })).toEqual(['Luca Neri', 'Maria Verdi']);
    expect(await names({ doctorId: ids.dr2 })).toEqual(['Anna Blu']);
    expect(await names({ patientId: ids.patient })).toEqual(['Maria Verdi']);
    // Dr. Rossi has two patients' treatments: the patient filter narrows them to one patient's.
    expect(await names({ doctorId: ids.dr1 })).toEqual(['Luca Neri', 'Maria Verdi']);
    expect(await names({ doctorId: ids.dr1, patientId: ids.patient })).toEqual(['Maria Verdi']);
    expect(await names({ doctorId: ids.dr2, patientId: ids.patient })).toEqual([]);
    expect(await names({ machineNumber: 'TB-1', doctorId: ids.dr1 })).toEqual([]);
    expect(await names({ machineNumber: 'unknown' })).toEqual([]);
  });

  it('searches patient name, plan and device by substring, % taken literally', async () => {
    expect(await names({ search: 'LUCA' })).toEqual(['Luca Neri']);
    expect(await names({ search: 'laser' })).toEqual(['Anna Blu']);
    expect(await names({ search: '100%', machineNumber: 'TA-1' })).toEqual(['Maria Verdi']);
    expect(await names({ search: '%' })).toEqual(['Maria Verdi']);
  });

  it('pages with limit', async () => {
    const { body } = await getJson('/api/v1/admin/treatement-records/all', { limit: 2, page: 2 });
    expect(body.data).toMatchObject({ total_pages: 2, total: 3, page: 2 });
    expect(body.data.data).toHaveLength(1);
  });

  it('names malformed filters in a 400', async () => {
    expect((await getJson('/api/v1/admin/treatement-records/all', { doctorId: '12' })).body.msg).toBe(
      'doctorId must be a valid id',
    );
    expect((await getJson('/api/v1/admin/treatement-records/all', { patientId: 'x' })).body.msg).toBe(
      'patientId must be a valid id',
    );
    expect(
      (await getJson('/api/v1/admin/treatement-records/all', { search: 's'.repeat(101) })).body.msg,
    ).toBe('search must be at most 100 characters');
    expect((await getJson('/api/v1/admin/treatement-records/all', { limit: 'ten' })).status).toBe(400);
  });
});

describe('GET /api/v1/admin/treatement-records/{id}', () => {
  it('reads one treatment with its images in order', async () => {
    const { status, body } = await getJson(`/api/v1/admin/treatement-records/${ids.treatments[0]}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ userName: 'Maria Verdi', totalEnergyOutput: 512.5 });
    expect(body.data.treatmentImages.map((i: { url: string }) => i.url)).toEqual([
      'data:image/svg+xml;base64,PHN2ZyAvPg==',
      'data:image/svg+xml;base64,PHN2Zy8+',
    ]);
    expect(body.data.treatmentImages[0].id).toMatch(/^[0-9a-f-]{36}$/);
    const bare = await getJson(`/api/v1/admin/treatement-records/${ids.treatments[1]}`);
    expect(bare.body.data).toMatchObject({
      treatmentImages: [],
      treatmentStartTime: null,
      treatmentDuration: null,
    });
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    expect((await getJson(`/api/v1/admin/treatement-records/${missingId}`)).body).toEqual({
      code: 404,
      msg: 'Treatment record not found',
      data: null,
    });
    expect(await getJson('/api/v1/admin/treatement-records/zzz')).toMatchObject({
      status: 400,
      body: { msg: 'Invalid treatment record id' },
    });
  });

  it('refuses both routes without a token', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/admin/treatement-records/all' })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/admin/treatement-records/${ids.treatments[0]}` }))
        .statusCode,
    ).toBe(401);
  });
});
