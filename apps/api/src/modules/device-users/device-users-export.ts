import { and, desc, eq, isNotNull, isNull, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  deviceUserStatusLabels,
  doctorExportHeader,
  patientExportHeader,
  technicianExportHeader,
} from '@app/contract/device-users';
import type { Db } from '#api/db/client.ts';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';
import { afterCursor, keysetCsv, type ExportCursor } from '#api/lib/csv-export.ts';
import { maskDoctor, maskPatient } from './contact-masks.ts';
import {
  doctorColumns,
  doctorsWhere,
  patientColumns,
  patientsWhere,
  technicianColumns,
  techniciansWhere,
  withIsoTime,
} from './device-user-queries.ts';

type Counted = (rows: number) => void;
type Table = typeof doctors | typeof patients | typeof technicians;

/**
 * A row's create time may be null (the column has a default, not a constraint). The lists put those
 * rows first (DESC puts NULLs first), so the export reads them first, by id, then the rest by
 * keyset; the cursor's time is '' while it is still among them.
 */
const cursorTime = (table: Table) => sql<string>`coalesce(${table.createTime}::text, '')`;
function afterNullsFirst(table: Table, after: ExportCursor | null): SQL | undefined {
  if (!after) return undefined;
  if (after.at === '')
    return or(and(isNull(table.createTime), lt(table.id, after.id)), isNotNull(table.createTime));
  return afterCursor(table.createTime as AnyColumn, table.id, after);
}

const status = (s: number) => deviceUserStatusLabels[s] ?? '';

/**
 * The device-user lists as CSV (issue 17): each list's filters and columns, newest first, contact
 * data masked by the lists' own masks unless the route let the admin ask for it unmasked.
 */
export function createDeviceUsersExport({ db }: { db: Db }) {
  const batchOf =
    <Row>(table: Table, read: (where: SQL | undefined, size: number) => Promise<Row[]>) =>
    (where: SQL | undefined) =>
    (after: ExportCursor | null, size: number) =>
      read(and(where, afterNullsFirst(table, after)), size);
  const newest = (table: Table) => [desc(table.createTime), desc(table.id)] as const;

  const doctorBatch = batchOf(doctors, (where, size) =>
    db
      .select({ ...doctorColumns, id: doctors.id, cursorAt: cursorTime(doctors) })
      .from(doctors)
      .innerJoin(devices, eq(devices.id, doctors.deviceId))
      .where(where)
      .orderBy(...newest(doctors))
      .limit(size),
  );
  const technicianBatch = batchOf(technicians, (where, size) =>
    db
      .select({ ...technicianColumns, id: technicians.id, cursorAt: cursorTime(technicians) })
      .from(technicians)
      .innerJoin(devices, eq(devices.id, technicians.deviceId))
      .where(where)
      .orderBy(...newest(technicians))
      .limit(size),
  );
  const patientBatch = batchOf(patients, (where, size) =>
    db
      .select({ ...patientColumns, id: patients.id, cursorAt: cursorTime(patients) })
      .from(patients)
      .innerJoin(devices, eq(devices.id, patients.deviceId))
      .leftJoin(doctors, eq(doctors.id, patients.doctorId))
      .where(where)
      .orderBy(...newest(patients))
      .limit(size),
  );

  return {
    doctors: (q: { machineNumber?: string; reveal?: string }, counted: Counted) =>
      keysetCsv(
        doctorExportHeader,
        doctorBatch(doctorsWhere(q)),
        (row) => {
          const { cursorAt: _at, id: _id, ...doctor } = row;
          const d = q.reveal === 'true' ? withIsoTime(doctor) : maskDoctor(withIsoTime(doctor));
          return [d.userId, d.userName, d.email, d.phonenumber, d.createTime, status(d.status)];
        },
        counted,
      ),
    // Technicians are staff, not data subjects: the list shows their contact data (decision 045).
    technicians: (q: { machineNumber?: string }, counted: Counted) =>
      keysetCsv(
        technicianExportHeader,
        technicianBatch(techniciansWhere(q)),
        (t) => [t.userId, t.userName, t.email, t.phonenumber, t.createTime?.toISOString(), status(t.status)],
        counted,
      ),
    patients: (q: { machineNumber?: string; doctorId?: string; reveal?: string }, counted: Counted) =>
      keysetCsv(
        patientExportHeader,
        patientBatch(patientsWhere(q)),
        (row) => {
          const { cursorAt: _at, id: _id, ...patient } = row;
          const p = q.reveal === 'true' ? withIsoTime(patient) : maskPatient(withIsoTime(patient));
          return [p.patientname, p.email, p.phone, p.doctorName, p.createTime];
        },
        counted,
      ),
  };
}
