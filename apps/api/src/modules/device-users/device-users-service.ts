import { and, desc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  deviceUserMessages,
  type Doctor,
  type DoctorList,
  type Patient,
  type PatientList,
  type Technician,
  type TechnicianList,
} from '@app/contract/device-users';
import type { Db } from '../../db/client.ts';
import { devices, doctors, patients, technicians } from '../../db/schema/devices.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { offsetOf, pageCount } from '../../lib/pagination.ts';

type Page = { page: number; limit: number };
type DeviceFilter = { machineNumber?: string };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
  const count = async (table: typeof doctors | typeof technicians | typeof patients, where: SQL | undefined) => {
    const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(table).where(where);
    return row!.total;
  };

  return {
    async listDoctors(q: Page & DeviceFilter): Promise<DoctorList> {
      const where = onMachine(doctors.deviceId, q.machineNumber);
      const [rows, total] = await Promise.all([
        db
          .select(doctorColumns)
          .from(doctors)
          .innerJoin(devices, eq(devices.id, doctors.deviceId))
          .where(where)
          .orderBy(desc(doctors.createTime), desc(doctors.id))
          .limit(q.limit)
          .offset(offsetOf(q.page, q.limit)),
        count(doctors, where),
      ]);
      return { data: rows.map((r) => ({ ...r, createTime: iso(r.createTime) })), totalPages: pageCount(total, q.limit), total, page: q.page, limit: q.limit };
    },

    async getDoctor(id: string): Promise<Doctor> {
      const [row] = await db.select(doctorColumns).from(doctors).innerJoin(devices, eq(devices.id, doctors.deviceId)).where(eq(doctors.id, id));
      if (!row) throw new NotFoundError(deviceUserMessages.doctorNotFound);
      return { ...row, createTime: iso(row.createTime) };
    },

    async listTechnicians(q: Page & DeviceFilter): Promise<TechnicianList> {
      const where = onMachine(technicians.deviceId, q.machineNumber);
      const [rows, total] = await Promise.all([
        db
          .select(technicianColumns)
          .from(technicians)
          .innerJoin(devices, eq(devices.id, technicians.deviceId))
          .where(where)
          .orderBy(desc(technicians.createTime), desc(technicians.id))
          .limit(q.limit)
          .offset(offsetOf(q.page, q.limit)),
        count(technicians, where),
      ]);
      return { data: rows.map((r) => ({ ...r, createTime: iso(r.createTime) })), totalPages: pageCount(total, q.limit), total, page: q.page, limit: q.limit };
    },

    async getTechnician(id: string): Promise<Technician> {
      const [row] = await db
        .select(technicianColumns)
        .from(technicians)
        .innerJoin(devices, eq(devices.id, technicians.deviceId))
        .where(eq(technicians.id, id));
      if (!row) throw new NotFoundError(deviceUserMessages.technicianNotFound);
      return { ...row, createTime: iso(row.createTime) };
    },

    /** SPEC 4: a doctor's patients filter by the doctor's id. */
    async listPatients(q: Page & DeviceFilter & { doctorId?: string }): Promise<PatientList> {
      const where = and(onMachine(patients.deviceId, q.machineNumber), q.doctorId ? eq(patients.doctorId, q.doctorId) : undefined);
      const [rows, total] = await Promise.all([
        db
          .select(patientColumns)
          .from(patients)
          .innerJoin(devices, eq(devices.id, patients.deviceId))
          .leftJoin(doctors, eq(doctors.id, patients.doctorId))
          .where(where)
          .orderBy(desc(patients.createTime), desc(patients.id))
          .limit(q.limit)
          .offset(offsetOf(q.page, q.limit)),
        count(patients, where),
      ]);
      return {
        patientData: rows.map((r) => ({ ...r, createTime: iso(r.createTime) })),
        totalPages: pageCount(total, q.limit),
        total,
        page: q.page,
        limit: q.limit,
      };
    },

    async getPatient(id: string): Promise<Patient> {
      const [row] = await db
        .select(patientColumns)
        .from(patients)
        .innerJoin(devices, eq(devices.id, patients.deviceId))
        .leftJoin(doctors, eq(doctors.id, patients.doctorId))
        .where(eq(patients.id, id));
      if (!row) throw new NotFoundError(deviceUserMessages.patientNotFound);
      return { ...row, createTime: iso(row.createTime) };
    },
  };
}
export type DeviceUsersService = ReturnType<typeof createDeviceUsersService>;
