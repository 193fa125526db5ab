import { and, desc, eq, isNotNull, isNull, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  deviceUserStatusLabels,
  doctorExportColumns,
  patientExportColumns,
  technicianExportColumns,
  type DoctorExportQuery,
  type PatientExportQuery,
  type TechnicianExportQuery,
} from '@app/contract/device-users';
import type { Db } from '#api/db/client.ts';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';
import { afterCursor, keysetCsv, type ExportCursor } from '#api/lib/csv-export.ts';
import { chosenColumns, type Cell } from '#api/lib/export-columns.ts';
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
type Staff = {
  userId: string | number | null;
  userName: string | null;
  email: string | null;
  phonenumber: string | null;
  createTime: string | null;
  status: number;
};
/** A doctor's or technician's columns, keyed as their tables' (the doctor's masked before). */
const staffCells: Record<keyof typeof doctorExportColumns, (s: Staff) => Cell> = {
  userId: (s) => s.userId,
  userName: (s) => s.userName,
  email: (s) => s.email,
  phonenumber: (s) => s.phonenumber,
  createTime: (s) => s.createTime,
  status: (s) => status(s.status),
};
type PatientCells = {
  patientname: string | null;
  email: string | null;
  phone: string | null;
  doctorName: string | null;
  createTime: string | null;
};
const patientCells: Record<keyof typeof patientExportColumns, (p: PatientCells) => Cell> = {
  patientname: (p) => p.patientname,
  email: (p) => p.email,
  phone: (p) => p.phone,
  doctorName: (p) => p.doctorName,
  createTime: (p) => p.createTime,
};

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

  // Each row is masked as it is read, so whichever columns are chosen hold only masked contact data.
  const masked =
    <Row extends { cursorAt: string; id: string }, Out>(
      batch: (after: ExportCursor | null, size: number) => Promise<Row[]>,
      shown: (row: Row) => Out,
    ) =>
    async (after: ExportCursor | null, size: number) =>
      (await batch(after, size)).map((row) => ({ ...shown(row), id: row.id, cursorAt: row.cursorAt }));

  return {
    doctors: (q: DoctorExportQuery, counted: Counted) =>
      keysetCsv(
        chosenColumns(doctorExportColumns, staffCells, q.columns),
        masked(doctorBatch(doctorsWhere(q)), ({ cursorAt: _at, id: _id, ...doctor }) =>
          q.reveal === 'true' ? withIsoTime(doctor) : maskDoctor(withIsoTime(doctor)),
        ),
        counted,
      ),
    // Technicians are staff, not data subjects: the list shows their contact data (decision 045).
    technicians: (q: TechnicianExportQuery, counted: Counted) =>
      keysetCsv(
        chosenColumns(technicianExportColumns, staffCells, q.columns),
        masked(technicianBatch(techniciansWhere(q)), ({ cursorAt: _at, id: _id, ...t }) => withIsoTime(t)),
        counted,
      ),
    patients: (q: PatientExportQuery, counted: Counted) =>
      keysetCsv(
        chosenColumns(patientExportColumns, patientCells, q.columns),
        masked(patientBatch(patientsWhere(q)), ({ cursorAt: _at, id: _id, ...patient }) =>
          q.reveal === 'true' ? withIsoTime(patient) : maskPatient(withIsoTime(patient)),
        ),
        counted,
      ),
  };
}
