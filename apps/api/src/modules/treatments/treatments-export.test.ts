import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskName } from '@app/contract/masking';
import { apiPaths } from '@app/contract/paths';
import { permissionMessages, permissionNames } from '@app/contract/permissions';
import type { Treatment } from '@app/contract/treatments';
import { devices, doctors } from '#api/db/schema/devices.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { exportBatchRows } from '#api/lib/csv-export.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { accessRowsOf } from '#api/test/audit-rows.ts';
import { csvCells } from '#api/test/csv-file.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Issue 17 item 3 and decision 058: Treatment Records as a CSV file holds exactly the list's rows
 * (its filters, every page, across the export's batches) and columns; the patient's name is masked
 * unless a role with patients.reveal asks for the file unmasked, which its audit row says.
 */

let t: TestApp;
let adminToken: string;
let maskedToken: string;
let doctorA = '';
// Three records share each minute: the keyset must order ties by id, as the list does.
const onA = exportBatchRows + 30;
const at = (minutes: number) => new Date(Date.UTC(2026, 9, 1, 8) + minutes * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login();
  ({ token: maskedToken } = await signInWithPermissions(
    t,
    adminToken,
    permissionNames.filter((p) => p !== 'patients.reveal'),
  ));
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
      { machineNumber: 'TX-A', serialNumber: 'TXS-A', ...place },
      { machineNumber: 'TX-B', serialNumber: 'TXS-B', ...place },
    ])
    .returning({ id: devices.id });
  const [dr] = await db
    .insert(doctors)
    .values({ deviceId: a!.id, userName: 'Dr. Rossi', email: 'rossi@clinic.test' })
    .returning({ id: doctors.id });
  doctorA = dr!.id;
  const record = (deviceId: string, i: number) => ({
    deviceId,
    doctorId: i % 2 === 0 ? doctorA : null,
    userName: i === 7 ? '=cmd|calc' : `Patient ${i}`,
    treatmentDevice: 'ShockWave S1',
    treatmentPlan: i % 4 === 0 ? 'Knee, "gentle"' : 'Back plan',
    treatmentStartTime: at(Math.floor(i / 3) * 1440),
    treatmentDuration: i % 60,
    totalEnergyOutput: i % 5 === 0 ? null : i + 0.5,
    createdAt: at(Math.floor(i / 3) * 1440),
  });
  await db.insert(treatmentRecords).values(Array.from({ length: onA }, (_, i) => record(a!.id, i)));
  await db.insert(treatmentRecords).values(Array.from({ length: 20 }, (_, i) => record(b!.id, i)));
});
afterAll(() => t.close());

const get = (token: string, url: string, query: Record<string, string>) =>
  t.injectAs(token, { method: 'GET', url, query });

/** Every row of the list, page after page, as it answers them. */
async function listed(query: Record<string, string>): Promise<Treatment[]> {
  const rows: Treatment[] = [];
  for (let page = 1; ; page++) {
    const res = await get(adminToken, apiPaths.treatmentsAll, { ...query, page: String(page), limit: '100' });
    expect(res.statusCode, res.body).toBe(200);
    rows.push(...(res.json().data.data as Treatment[]));
    if (page >= res.json().data.total_pages) return rows;
  }
}
const cell = (v: string | number | null) => (v === null ? '' : String(v));
/** A list row as the file writes it: formulas defused (lib/csv.ts), the name masked unless revealed. */
const asListed = (r: Treatment, revealed: boolean) => [
  revealed ? r.userName.replace(/^=/, "'=") : maskName(r.userName),
  r.treatmentDevice,
  r.treatmentPlan,
  cell(r.treatmentStartTime),
  cell(r.treatmentDuration),
  cell(r.totalEnergyOutput),
];

describe('GET treatement-records/export', () => {
  it("holds every row of the machine's list across batches, in its order, the patient's name masked", async () => {
    const audit = await accessRowsOf(t, async () => {
      const res = await get(adminToken, apiPaths.treatmentsExport, { machineNumber: 'TX-A' });
      expect(res.statusCode, res.body).toBe(200);
      const [header, ...rows] = csvCells(res.body);
      expect(header).toEqual([
        'User Name',
        'Treatment Device',
        'Treatment Plan',
        'Start Time',
        'Duration (min)',
        'Total Energy Output (J)',
      ]);
      expect(rows).toHaveLength(onA);
      expect(rows).toEqual((await listed({ machineNumber: 'TX-A' })).map((r) => asListed(r, false)));
      expect(res.body).not.toContain('Patient ');
    });
    expect(audit.map((r) => r.resource)).toContain(`EXPORT treatments ${onA} rows: machineNumber=TX-A`);
  });

  it("takes the list's search, doctor and day range, and unmasks for patients.reveal, audited as such", async () => {
    const query = {
      machineNumber: 'TX-A',
      doctorId: doctorA,
      search: 'knee',
      from: '2026-10-05',
      to: '2026-12-31',
    };
    const audit = await accessRowsOf(t, async () => {
      const res = await get(adminToken, apiPaths.treatmentsExport, { ...query, reveal: 'true' });
      expect(res.statusCode, res.body).toBe(200);
      const [, ...rows] = csvCells(res.body);
      const list = await listed(query);
      expect(list.length).toBeGreaterThan(10);
      expect(rows).toEqual(list.map((r) => asListed(r, true)));
    });
    expect(audit.map((r) => r.resource)).toContain(
      `EXPORT treatments ${(await listed(query)).length} rows unmasked: machineNumber=TX-A&doctorId=${doctorA}&search=knee&from=2026-10-05&to=2026-12-31`,
    );
  });

  it('defuses a name a spreadsheet would run, once revealed', async () => {
    const res = await get(adminToken, apiPaths.treatmentsExport, { machineNumber: 'TX-B', reveal: 'true' });
    expect(csvCells(res.body).map((r) => r[0])).toContain("'=cmd|calc");
  });

  it('refuses reveal=true without patients.reveal, naming it, and serves that role the masked file', async () => {
    const refused = await get(maskedToken, apiPaths.treatmentsExport, {
      machineNumber: 'TX-B',
      reveal: 'true',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(permissionMessages.missing('patients.reveal'));
    const masked = await get(maskedToken, apiPaths.treatmentsExport, { machineNumber: 'TX-B' });
    expect(masked.statusCode).toBe(200);
    expect(
      csvCells(masked.body)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(Array(20).fill(maskName('x')));
  });

  it('names a bad filter in a 400 and writes nothing', async () => {
    const bad: Record<string, string>[] = [
      { from: '2026-13-01' },
      { search: 'x'.repeat(101) },
      { reveal: '1' },
      { limit: '10' },
    ];
    for (const query of bad) {
      const res = await get(adminToken, apiPaths.treatmentsExport, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});
