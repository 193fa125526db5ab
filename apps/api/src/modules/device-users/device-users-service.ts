import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import {
  deviceUserMessages,
  type Doctor,
  type DoctorList,
  type Patient,
  type PatientList,
  type Technician,
  type TechnicianList,
} from '@app/contract/device-users';
import type { Db } from '#api/db/client.ts';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';
import { NotFoundError } from '#api/lib/errors.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';
import {
  doctorColumns,
  doctorsWhere,
  patientColumns,
  patientsWhere,
  technicianColumns,
  techniciansWhere,
  withIsoTime,
  type DeviceFilter,
  type DeviceUserTable,
} from './device-user-queries.ts';
import { createDeviceUsersExport } from './device-users-export.ts';

type Page = { page: number; limit: number };

export function createDeviceUsersService({ db }: { db: Db }) {
  const count = async (table: DeviceUserTable, where: SQL | undefined) => {
    const [row] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(table)
      .where(where);
    return row!.total;
  };
  // Each kind's rows joined to their device (and a patient's doctor); lists and reads select the same.
  const selectDoctors = () =>
    db.select(doctorColumns).from(doctors).innerJoin(devices, eq(devices.id, doctors.deviceId)).$dynamic();
  const selectTechnicians = () =>
    db
      .select(technicianColumns)
      .from(technicians)
      .innerJoin(devices, eq(devices.id, technicians.deviceId))
      .$dynamic();
  const selectPatients = () =>
    db
      .select(patientColumns)
      .from(patients)
      .innerJoin(devices, eq(devices.id, patients.deviceId))
      .leftJoin(doctors, eq(doctors.id, patients.doctorId))
      .$dynamic();

  /** One page of a kind's rows, newest first. */
  const newestPage = <T extends PgSelect>(
    query: T,
    table: DeviceUserTable,
    where: SQL | undefined,
    q: Page,
  ) =>
    query
      .where(where)
      .orderBy(desc(table.createTime), desc(table.id))
      .limit(q.limit)
      .offset(offsetOf(q.page, q.limit));
  const pageInfo = (total: number, q: Page) => ({
    totalPages: pageCount(total, q.limit),
    total,
    page: q.page,
    limit: q.limit,
  });

  return {
    /** Each list as CSV (device-users-export.ts). */
    exportCsv: createDeviceUsersExport({ db }),

    async listDoctors(q: Page & DeviceFilter): Promise<DoctorList> {
      const where = doctorsWhere(q);
      const [rows, total] = await Promise.all([
        newestPage(selectDoctors(), doctors, where, q),
        count(doctors, where),
      ]);
      return { data: rows.map(withIsoTime), ...pageInfo(total, q) };
    },

    async getDoctor(id: string): Promise<Doctor> {
      const [row] = await selectDoctors().where(eq(doctors.id, id));
      if (!row) throw new NotFoundError(deviceUserMessages.doctorNotFound);
      return withIsoTime(row);
    },

    async listTechnicians(q: Page & DeviceFilter): Promise<TechnicianList> {
      const where = techniciansWhere(q);
      const [rows, total] = await Promise.all([
        newestPage(selectTechnicians(), technicians, where, q),
        count(technicians, where),
      ]);
      return { data: rows.map(withIsoTime), ...pageInfo(total, q) };
    },

    async getTechnician(id: string): Promise<Technician> {
      const [row] = await selectTechnicians().where(eq(technicians.id, id));
      if (!row) throw new NotFoundError(deviceUserMessages.technicianNotFound);
      return withIsoTime(row);
    },

    /** docs/product.md §4.7: a doctor's patients filter by the doctor's id. */
    async listPatients(q: Page & DeviceFilter & { doctorId?: string }): Promise<PatientList> {
      const where = patientsWhere(q);
      const [rows, total] = await Promise.all([
        newestPage(selectPatients(), patients, where, q),
        count(patients, where),
      ]);
      return { patientData: rows.map(withIsoTime), ...pageInfo(total, q) };
    },

    async getPatient(id: string): Promise<Patient> {
      const [row] = await selectPatients().where(eq(patients.id, id));
      if (!row) throw new NotFoundError(deviceUserMessages.patientNotFound);
      return withIsoTime(row);
    },
  };
}
export type DeviceUsersService = ReturnType<typeof createDeviceUsersService>;
