import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceUserStatusLabels } from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { permissionMessages, permissionNames } from '@app/contract/permissions';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { accessRowsOf } from '#api/test/audit-rows.ts';
import { exportBatchRows } from '#api/lib/csv-export.ts';
import { csvCells } from '#api/test/csv-file.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Issue 17 item 3 and decision 058: the device-user lists as CSV files hold exactly the list's rows
 * (its filters, every page) and columns, contact data masked as the list masks it; reveal=true
 * unmasks it for a role with patients.reveal only, and the audit row says the file was unmasked.
 */

let t: TestApp;
let adminToken: string;
let maskedToken: string;
let drA1 = '';
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 8, minutes));

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login();
  ({ token: maskedToken } = await signInWithPermissions(
    t,
    adminToken,
    permissionNames.filter((p) => p !== 'patients.reveal'),
  ));
  const db = t.database.db;
  const [a, b] = await db
    .insert(devices)
    .values(
      ['EXU-A', 'EXU-B'].map((machineNumber, i) => ({
        machineNumber,
        serialNumber: `SX-${i}`,
        location: 'Clinic',
        latitude: 1,
        longitude: 2,
        city: 'Oslo',
        country: 'Norway',
        address: 'Main St 1',
      })),
    )
    .returning({ id: devices.id });
  const drs = await db
    .insert(doctors)
    .values([
      {
        deviceId: a!.id,
        userName: 'Dr. Vale',
        email: 'vale@clinic.test',
        phonenumber: '+47 1234 5678',
        status: 2,
        createTime: at(1),
      },
      // Written without a time: the list puts it first, and so must the file.
      {
        deviceId: a!.id,
        userName: 'Dr. "Null", Time',
        email: 'null@clinic.test',
        phonenumber: null,
        status: 1,
        createTime: null,
      },
      {
        deviceId: a!.id,
        userName: '=Dr. Formula',
        email: 'f@clinic.test',
        phonenumber: '99',
        status: 2,
        createTime: at(3),
      },
      {
        deviceId: b!.id,
        userName: 'Dr. Elsewhere',
        email: 'else@clinic.test',
        phonenumber: '5550000',
        status: 2,
        createTime: at(2),
      },
    ])
    .returning({ id: doctors.id });
  drA1 = drs[0]!.id;
  await db.insert(patients).values([
    {
      deviceId: a!.id,
      doctorId: drA1,
      patientname: 'Jane Roe',
      email: 'jane.roe@example.com',
      phone: '5551234567',
      createTime: at(5),
    },
    {
      deviceId: a!.id,
      doctorId: drs[2]!.id,
      patientname: 'John Doe',
      email: 'john@example.com',
      phone: null,
      createTime: at(6),
    },
    {
      deviceId: a!.id,
      doctorId: drA1,
      patientname: 'Ann Lee',
      email: 'ann@example.com',
      phone: '+1 (555) 987-6543',
      createTime: at(7),
    },
    {
      deviceId: b!.id,
      doctorId: drs[3]!.id,
      patientname: 'Bo Other',
      email: 'bo@example.com',
      phone: '123',
      createTime: at(8),
    },
  ]);
  await db.insert(technicians).values([
    {
      deviceId: a!.id,
      userName: 'Tech One',
      email: 'tech@clinic.test',
      phonenumber: '5551234567',
      createTime: at(4),
    },
    {
      deviceId: b!.id,
      userName: 'Tech Two',
      email: 'tech2@clinic.test',
      phonenumber: null,
      createTime: at(9),
    },
  ]);
});
afterAll(() => t.close());

const get = (token: string, url: string, query: Record<string, string> = {}) =>
  t.injectAs(token, { method: 'GET', url, query });

/** Every row of a list, page after page, as the list answers it (masked as it masks). */
async function listed<Row>(url: string, query: Record<string, string>, key: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await get(adminToken, url, { ...query, page: String(page), limit: '100' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    rows.push(...(data[key] as Row[]));
    if (page >= data.totalPages) return rows;
  }
}
const cell = (v: string | number | null) => (v === null ? '' : String(v));
// The file defuses a cell a spreadsheet would run as a formula (lib/csv.ts).
const defused = (v: string) => (/^[=+\-@]/.test(v) ? `'${v}` : v);

type DoctorRow = {
  userId: number;
  userName: string;
  email: string;
  phonenumber: string | null;
  createTime: string | null;
  status: number;
};
type PatientRow = {
  patientname: string;
  email: string;
  phone: string | null;
  doctorName: string | null;
  createTime: string | null;
};

describe('GET doctor/export', () => {
  const asListed = (d: DoctorRow) => [
    cell(d.userId),
    defused(d.userName),
    d.email,
    cell(d.phonenumber),
    cell(d.createTime),
    deviceUserStatusLabels[d.status]!,
  ];

  it("holds the list's rows for the machine, in its order and columns, masked as it masks them", async () => {
    const res = await get(adminToken, apiPaths.doctorsExport, { machineNumber: 'exu-a' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="doctors-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = csvCells(res.body);
    expect(header).toEqual(['Doctor ID', 'User Name', 'Email', 'Phone Number', 'Created Time', 'Status']);
    const list = await listed<DoctorRow>(apiPaths.doctorsAll, { machineNumber: 'EXU-A' }, 'data');
    expect(list.map((d) => d.userName)).toEqual(['Dr. "Null", Time', '=Dr. Formula', 'Dr. Vale']);
    expect(rows).toEqual(list.map(asListed));
    expect(rows[2]!.slice(2, 4)).toEqual(['v•••@clinic.test', '••••••5678']);
    expect(res.body).not.toContain('vale@clinic.test');
  });

  it('unmasks the file for a role with patients.reveal that asks, and the audit row says so', async () => {
    const rows = await accessRowsOf(t, async () => {
      const res = await get(adminToken, apiPaths.doctorsExport, { machineNumber: 'EXU-A', reveal: 'true' });
      expect(res.statusCode, res.body).toBe(200);
      // A leading + would be read as a formula: the cell gets an apostrophe (lib/csv.ts).
      expect(csvCells(res.body)[3]!.slice(1, 4)).toEqual(['Dr. Vale', 'vale@clinic.test', "'+47 1234 5678"]);
    });
    expect(rows.map((r) => r.resource)).toContain('EXPORT doctors 3 rows unmasked: machineNumber=EXU-A');
  });

  it('refuses reveal=true without patients.reveal, naming it, and still serves the masked file', async () => {
    const refused = await get(maskedToken, apiPaths.doctorsExport, { reveal: 'true' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(permissionMessages.missing('patients.reveal'));
    const masked = await get(maskedToken, apiPaths.doctorsExport, { reveal: 'false' });
    expect(masked.statusCode).toBe(200);
    expect(masked.body).not.toMatch(/[a-z]{2}@clinic/);
    expect(masked.body).toContain('e•••@clinic.test');
  });
});

describe('GET patient/export', () => {
  const asListed = (p: PatientRow) => [
    p.patientname,
    p.email,
    cell(p.phone),
    cell(p.doctorName),
    cell(p.createTime),
  ];

  it("holds the list's rows for the machine and doctor, masked, and audits the filters and count", async () => {
    const audit = await accessRowsOf(t, async () => {
      const res = await get(adminToken, apiPaths.patientsExport, { machineNumber: 'EXU-A', doctorId: drA1 });
      expect(res.statusCode, res.body).toBe(200);
      const [header, ...rows] = csvCells(res.body);
      expect(header).toEqual(['Patient Name', 'Email', 'Phone Number', 'Doctor', 'Created Time']);
      const list = await listed<PatientRow>(
        apiPaths.patientsAll,
        { machineNumber: 'EXU-A', doctorId: drA1 },
        'patientData',
      );
      expect(rows).toEqual(list.map(asListed));
      expect(rows).toEqual([
        ['Ann Lee', 'a•••@example.com', '••••••6543', 'Dr. Vale', at(7).toISOString()],
        ['Jane Roe', 'j•••@example.com', '••••••4567', 'Dr. Vale', at(5).toISOString()],
      ]);
    });
    const exported = audit.find((r) => r.resource.startsWith('EXPORT patients'));
    expect(exported).toMatchObject({
      resource: `EXPORT patients 2 rows: machineNumber=EXU-A&doctorId=${drA1}`,
      userEmail: expect.stringContaining('@'),
    });
  });

  it('unmasks with reveal=true for patients.reveal only', async () => {
    const open = await get(adminToken, apiPaths.patientsExport, { machineNumber: 'EXU-B', reveal: 'true' });
    expect(csvCells(open.body).slice(1)).toEqual([
      ['Bo Other', 'bo@example.com', '123', 'Dr. Elsewhere', at(8).toISOString()],
    ]);
    const refused = await get(maskedToken, apiPaths.patientsExport, {
      machineNumber: 'EXU-B',
      reveal: 'true',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(permissionMessages.missing('patients.reveal'));
  });

  it('names a bad filter in a 400', async () => {
    const bad: Record<string, string>[] = [
      { doctorId: 'nope' },
      { reveal: 'yes' },
      { machineNumber: 'x'.repeat(65) },
    ];
    for (const query of bad) {
      const res = await get(adminToken, apiPaths.patientsExport, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('GET technicians/export', () => {
  it("holds the list's rows with their contact data, as the list shows staff's (decision 045)", async () => {
    const res = await get(maskedToken, apiPaths.techniciansExport, { machineNumber: 'EXU-A' });
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = csvCells(res.body);
    expect(header).toEqual(['ID', 'User Name', 'Email', 'Phone Number', 'Created Time', 'Status']);
    const list = await listed<DoctorRow>(apiPaths.techniciansAll, { machineNumber: 'EXU-A' }, 'data');
    expect(rows).toEqual(
      list.map((d) => [
        cell(d.userId),
        d.userName,
        d.email,
        cell(d.phonenumber),
        cell(d.createTime),
        deviceUserStatusLabels[d.status]!,
      ]),
    );
    expect(rows.map((r) => r[2])).toEqual(['tech@clinic.test']);
    // Technicians have nothing masked, so nothing to reveal: the flag is not among the filters.
    expect((await get(adminToken, apiPaths.techniciansExport, { reveal: 'true' })).statusCode).toBe(400);
  });
});

describe('rows without a create time', () => {
  it('come first, by id, as in the list, even when a batch ends among them', async () => {
    const db = t.database.db;
    const [n] = await db
      .insert(devices)
      .values({
        machineNumber: 'EXU-N',
        serialNumber: 'SX-N',
        location: 'Clinic',
        latitude: 1,
        longitude: 2,
        city: 'Oslo',
        country: 'Norway',
        address: 'Main St 1',
      })
      .returning({ id: devices.id });
    const undated = exportBatchRows + 5;
    await db.insert(technicians).values([
      ...Array.from({ length: undated }, (_, i) => ({
        deviceId: n!.id,
        userName: `Undated ${i}`,
        email: `u${i}@clinic.test`,
        createTime: null,
      })),
      { deviceId: n!.id, userName: 'Dated', email: 'd@clinic.test', createTime: at(1) },
    ]);
    const res = await get(adminToken, apiPaths.techniciansExport, { machineNumber: 'EXU-N' });
    const names = csvCells(res.body)
      .slice(1)
      .map((r) => r[1]);
    const list = await listed<DoctorRow>(apiPaths.techniciansAll, { machineNumber: 'EXU-N' }, 'data');
    expect(names).toHaveLength(undated + 1);
    expect(names).toEqual(list.map((r) => r.userName));
    expect(names.at(-1)).toBe('Dated');
  });
});
