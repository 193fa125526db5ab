import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { and, asc, eq, gt, max, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { customerPaths } from '@app/contract/customers-texts';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { clinicPortalApiPaths } from '@app/contract/clinic-portal-texts';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { testAdmin, type TestApp } from '#api/test/test-app.ts';

/*
 * Decision 064: an export, a reveal and a look at one health record have their audit row committed
 * before the first byte of the answer leaves, and an export's count before its last. Checked from
 * inside the server's own response: the first write (and the end) of each answer is held until the
 * test has read the audit table, so what it finds was committed before that byte could leave.
 */

let t: TestApp;
let token: string;
let base: string;

/**
 * Every export route, by its list's name in the audit row; those that take reveal=true say so. An
 * export of one record (`:id`) is downloaded, and its rows checked, by its module's test (`where`).
 */
const exportsByPath: Record<string, { list: string; unmaskable?: true; where?: string }> = {
  [apiPaths.machineExport]: { list: 'devices' },
  [apiPaths.subscriptionExport]: { list: 'subscriptions' },
  [apiPaths.usersExport]: { list: 'users' },
  [apiPaths.rolesExport]: { list: 'roles' },
  [apiPaths.systemUpdatesExport]: { list: 'app-updates' },
  [apiPaths.accessLogsExport]: { list: 'access-logs' },
  [apiPaths.errorLogsExport]: { list: 'error-logs' },
  [apiPaths.techniciansExport]: { list: 'technicians' },
  [apiPaths.doctorsExport]: { list: 'doctors', unmaskable: true },
  [apiPaths.patientsExport]: { list: 'patients', unmaskable: true },
  [apiPaths.treatmentsExport]: { list: 'treatments', unmaskable: true },
  [customerPaths.export]: { list: 'customers' },
  // A clinic's own files (decision 088): downloaded with a clinic user's session, rows checked there.
  [clinicPortalApiPaths.figuresExport]: {
    list: 'treatment-figures-by-machine',
    where: 'modules/clinic-portal/clinic-portal-routes.test.ts',
  },
  [clinicPortalApiPaths.usageExport]: {
    list: 'usage',
    where: 'modules/clinic-portal/clinic-portal-routes.test.ts',
  },
  [safetyNoticePaths.export(':id')]: {
    list: 'safety-notice',
    where: 'modules/safety-notices/safety-notices-routes.test.ts',
  },
};
const downloads = Object.entries(exportsByPath)
  .filter(([, { where }]) => !where)
  .flatMap(([path, { list, unmaskable }]) => [
    { path, list, unmasked: false },
    ...(unmaskable ? [{ path, list, unmasked: true }] : []),
  ]);

/** The audit rows the server had committed at an answer's first byte and at its end. */
type Seen = { first?: string[]; last?: string[] };
const seen = new Map<string, Seen>();
let since = 0;

/** The admin's access rows after `since`, oldest first: what the database holds right now. */
const committed = async () =>
  (
    await t.database.db
      .select({ resource: accessLogs.resource })
      .from(accessLogs)
      .where(and(gt(accessLogs.id, since), eq(accessLogs.userEmail, testAdmin.email)))
      .orderBy(asc(accessLogs.id))
  ).map((r) => r.resource);

/**
 * Holds each answer's writes: the first (the status line and headers leave with it) and the end
 * wait until the audit table has been read. Every write answers false, so a piped stream waits
 * for the 'drain' sent once the write is through: the order of the bytes is kept.
 */
function holdEachAnswer(server: Server) {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const record: Seen = {};
    seen.set(req.url!, record);
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    let queue = Promise.resolve();
    let started = false;
    const firstByte = async () => {
      if (started) return;
      started = true;
      record.first = await committed().catch(() => undefined);
    };
    res.write = ((...args: unknown[]) => {
      queue = queue.then(async () => {
        await firstByte();
        write(...args);
        res.emit('drain');
      });
      return false;
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      queue = queue.then(async () => {
        await firstByte();
        record.last = await committed().catch(() => undefined);
        end(...args);
      });
      return res;
    }) as typeof res.end;
  });
}

beforeAll(async () => {
  ({ t, token } = await signedInApp());
  // A machine with one of each kind of health record (the other lists have their own rows: the
  // first admin, the built-in roles, this file's own logs).
  const db = t.database.db;
  const [device] = await db
    .insert(devices)
    .values({
      machineNumber: 'FB-1',
      serialNumber: 'SFB-1',
      location: 'Clinic',
      latitude: 1,
      longitude: 2,
      city: 'Oslo',
      country: 'Norway',
      address: 'Main St 1',
    })
    .returning({ id: devices.id });
  const deviceId = device!.id;
  const [doctor] = await db
    .insert(doctors)
    .values({ deviceId, userName: 'Dr. Byte', email: 'byte@clinic.test', phonenumber: '5551234' })
    .returning({ id: doctors.id });
  await db.insert(technicians).values({ deviceId, userName: 'Tech Byte', email: 'tech@clinic.test' });
  const [patient] = await db
    .insert(patients)
    .values({
      deviceId,
      doctorId: doctor!.id,
      patientname: 'Pat Byte',
      email: 'pat@example.com',
      phone: '5559876',
    })
    .returning({ id: patients.id });
  await db.insert(treatmentRecords).values({
    deviceId,
    doctorId: doctor!.id,
    patientId: patient!.id,
    userName: 'Pat Byte',
    treatmentDevice: 'Laser',
    treatmentPlan: 'Knee',
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  holdEachAnswer(t.app.server);
});
afterAll(() => t.close());

/** Marks where the rows of the next request begin. */
async function mark() {
  await t.app.audit.flush();
  const [last] = await t.database.db.select({ id: max(accessLogs.id) }).from(accessLogs);
  since = last?.id ?? 0;
}

async function fetchAs(path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });
  return { status: res.status, body: await res.text(), seen: seen.get(path) ?? {} };
}

const dataLines = (csv: string) => csv.split('\r\n').length - 2;

describe('audit rows that land before the answer (decision 064)', () => {
  it('covers every export route the app registers', () => {
    const routes = t.app.registeredRoutes
      .filter((r) => r.method === 'GET' && /[-/]export$/.test(r.url))
      .map((r) => r.url);
    expect(routes.sort()).toEqual(Object.keys(exportsByPath).sort());
  });

  it.each(downloads)(
    'has $list (unmasked: $unmasked) exported in the trail at its first byte, and its row count at its last',
    async ({ path, list, unmasked }) => {
      await mark();
      const url = unmasked ? `${path}?reveal=true` : path;
      const res = await fetchAs(url);
      expect(res.status, res.body).toBe(200);
      const how = unmasked ? ' unmasked' : '';
      // Its first row, nothing before it (the count may be there too: the file is read ahead).
      expect(res.seen.first?.[0]).toBe(`EXPORTING ${list}${how}: all`);
      expect(res.seen.last).toEqual([
        `EXPORTING ${list}${how}: all`,
        `EXPORT ${list} ${dataLines(res.body)} rows${how}: all`,
      ]);
    },
  );

  it('has the filters of an export in its first row, as in its count row', async () => {
    await mark();
    const path = `${apiPaths.patientsExport}?machineNumber=NONE-1&reveal=true&columns=patientname,email`;
    const res = await fetchAs(path);
    expect(res.status, res.body).toBe(200);
    expect(res.seen.last).toEqual([
      'EXPORTING patients unmasked: machineNumber=NONE-1',
      'EXPORT patients 0 rows unmasked: machineNumber=NONE-1',
    ]);
  });

  it('has a look at one health record, and a reveal, in the trail at the first byte of the answer', async () => {
    const [patient] = await t.database.db.select({ id: patients.id }).from(patients).limit(1);
    const [doctor] = await t.database.db.select({ id: doctors.id }).from(doctors).limit(1);
    const [technician] = await t.database.db.select({ id: technicians.id }).from(technicians).limit(1);
    const [treatment] = await t.database.db
      .select({ id: treatmentRecords.id })
      .from(treatmentRecords)
      .limit(1);
    const looks = [
      { path: apiPaths.patient(patient!.id), row: `VIEW patient ${patient!.id}` },
      { path: apiPaths.doctor(doctor!.id), row: `VIEW doctor ${doctor!.id}` },
      { path: apiPaths.technician(technician!.id), row: `VIEW technician ${technician!.id}` },
      { path: apiPaths.treatment(treatment!.id), row: `VIEW treatment ${treatment!.id}` },
    ];
    for (const look of looks) {
      await mark();
      const res = await fetchAs(look.path);
      expect(res.status, res.body).toBe(200);
      expect(res.seen.first, look.path).toContain(look.row);
    }
    const reveals = [
      { path: apiPaths.patientReveal(patient!.id), row: `REVEAL patient ${patient!.id}: email, phone` },
      { path: apiPaths.doctorReveal(doctor!.id), row: `REVEAL doctor ${doctor!.id}: email, phone, address` },
    ];
    for (const reveal of reveals) {
      await mark();
      const res = await fetchAs(reveal.path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'Billing' }),
      });
      expect(res.status, res.body).toBe(200);
      expect(res.seen.first, reveal.path).toContain(`${reveal.row} (reason: Billing)`);
    }
  });

  it('sends no file, record or revealed value while the trail cannot be written, and says so with a 503', async () => {
    const [patient] = await t.database.db
      .select({ id: patients.id, email: patients.email })
      .from(patients)
      .where(sql`${patients.email} is not null`)
      .limit(1);
    await mark();
    await t.database.db.execute(sql`alter table access_logs rename to access_logs_away`);
    try {
      const refused = [
        ...downloads.map((d) => ({ path: d.unmasked ? `${d.path}?reveal=true` : d.path, init: {} })),
        { path: apiPaths.patient(patient!.id), init: {} },
        {
          path: apiPaths.patientReveal(patient!.id),
          init: {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ reason: 'Billing' }),
          },
        },
      ];
      for (const { path, init } of refused) {
        const res = await fetchAs(path, init);
        expect(res.status, path).toBe(503);
        expect(JSON.parse(res.body), path).toEqual({ code: 503, msg: apiMessages.unavailable, data: null });
        expect(res.body).not.toContain(patient!.email);
      }
    } finally {
      await t.database.db.execute(sql`alter table access_logs_away rename to access_logs`);
    }
    // The refusals' own request rows were kept in memory and land now; no export, view or reveal
    // row does: none of them happened.
    await t.app.audit.flush();
    const rows = await committed();
    expect(rows.length).toBeGreaterThan(downloads.length);
    expect(rows.filter((r) => !/^(GET|POST) \/api\//.test(r))).toEqual([]);
  });
});
