import { and, desc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
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

type Page = { page: number; limit: number };
type DeviceUserTable = typeof doctors | typeof technicians | typeof patients;
type DeviceFilter = { machineNumber?: string };

const withIsoTime = <Row extends { createTime: Date | null }>(row: Row) => ({
  ...row,
  createTime: row.createTime ? row.createTime.toISOString() : null,
});

/** Rows of the device with this machine number (an unknown number simply matches nothing). */
const onMachine = (deviceId: AnyColumn, machineNumber: string | undefined) =>
  machineNumber
    ? sql`${deviceId} = (select ${devices.id} from ${devices} where lower(${devices.machineNumber}) = lower(${machineNumber}))`
    : undefined;

const doctorColumns = {
  _id: doctors.id,
  userId: doctors.userId,
  userName: doctors.userName,
  email: doctors.email,
  phonenumber: doctors.phonenumber,
  address: doctors.address,
  status: doctors.status,
  createTime: doctors.createTime,
  machineNumber: devices.machineNumber,
};
const technicianColumns = {
  _id: technicians.id,
  userId: technicians.userId,
  userName: technicians.userName,
  email: technicians.email,
  phonenumber: technicians.phonenumber,
  status: technicians.status,
  createTime: technicians.createTime,
  machineNumber: devices.machineNumber,
};
const patientColumns = {
  _id: patients.id,
  userId: patients.userId,
  patientname: patients.patientname,
  email: patients.email,
  phone: patients.phone,
  createTime: patients.createTime,
  doctorid: patients.doctorId,
  doctorName: doctors.userName,
  machineNumber: devices.machineNumber,
};

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
    async listDoctors(q: Page & DeviceFilter): Promise<DoctorList> {
      const where = onMachine(doctors.deviceId, q.machineNumber);
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
      const where = onMachine(technicians.deviceId, q.machineNumber);
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
      const where = and(
        onMachine(patients.deviceId, q.machineNumber),
        q.doctorId ? eq(patients.doctorId, q.doctorId) : undefined,
      );
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
