import { and, eq, sql, type AnyColumn } from 'drizzle-orm';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';

/* What each device-user list reads, shared by the lists (device-users-service.ts) and their CSV exports. */

export type DeviceUserTable = typeof doctors | typeof technicians | typeof patients;
export type DeviceFilter = { machineNumber?: string };

export const withIsoTime = <Row extends { createTime: Date | null }>(row: Row) => ({
  ...row,
  createTime: row.createTime ? row.createTime.toISOString() : null,
});

/** Rows of the device with this machine number (an unknown number simply matches nothing). */
const onMachine = (deviceId: AnyColumn, machineNumber: string | undefined) =>
  machineNumber
    ? sql`${deviceId} = (select ${devices.id} from ${devices} where lower(${devices.machineNumber}) = lower(${machineNumber}))`
    : undefined;

/** Each list's conditions, shared with its CSV export (device-users-export.ts). */
export const doctorsWhere = (q: DeviceFilter) => onMachine(doctors.deviceId, q.machineNumber);
export const techniciansWhere = (q: DeviceFilter) => onMachine(technicians.deviceId, q.machineNumber);
export const patientsWhere = (q: DeviceFilter & { doctorId?: string }) =>
  and(
    onMachine(patients.deviceId, q.machineNumber),
    q.doctorId ? eq(patients.doctorId, q.doctorId) : undefined,
  );

export const doctorColumns = {
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
export const technicianColumns = {
  _id: technicians.id,
  userId: technicians.userId,
  userName: technicians.userName,
  email: technicians.email,
  phonenumber: technicians.phonenumber,
  status: technicians.status,
  createTime: technicians.createTime,
  machineNumber: devices.machineNumber,
};
export const patientColumns = {
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
