import { z } from 'zod';
import { exportColumnsQuery } from './export-columns.ts';
import { envelope } from './envelope.ts';
import { pageQuery, strictObject } from './fields.ts';
import { revealExportQuery } from './masking.ts';

/** Doctors, patients and technicians: the device users the mobile app registers (view-only here). */
export const deviceUserMessages = {
  // docs/product.md §2.8 "Tables and pagers": empty texts.
  noDoctors: 'No Doctor found.',
  noPatients: 'No Patient found.',
  noTechnicians: 'No Technician found.',
  noTreatmentPatients: 'No Treatment Patient found.',
  // docs/product.md §8: default empty-result messages.
  doctorsNoneFound: 'No Doctor found',
  patientsNoneFound: 'No Patient found',
  techniciansNoneFound: 'No technician found',
  // Ours.
  doctorNotFound: 'Doctor not found',
  patientNotFound: 'Patient not found',
  technicianNotFound: 'Technician not found',
  invalidDoctorId: 'Invalid doctor id',
  invalidPatientId: 'Invalid patient id',
  invalidTechnicianId: 'Invalid technician id',
  doctorIdInvalid: 'doctorId must be a valid id',
  machineNumberInvalid: 'machineNumber must be at most 64 characters',
} as const;

/** Status of a doctor or technician account in the app: 1 Inactive, 2 Active. */
export const deviceUserStatusLabels: Record<number, string> = { 1: 'Inactive', 2: 'Active' };

const machineNumberFilter = z
  .string()
  .trim()
  .min(1)
  .max(64, deviceUserMessages.machineNumberInvalid)
  .optional();
const doctorIdFilter = z.uuid({ error: deviceUserMessages.doctorIdInvalid }).optional();

/** Device-user, treatment and log pagers offer 10 and 25; the API allows up to 100 like every list. */
export const doctorListQuerySchema = pageQuery.extend({ machineNumber: machineNumberFilter });
export const technicianListQuerySchema = pageQuery.extend({ machineNumber: machineNumberFilter });
export const patientListQuerySchema = pageQuery.extend({
  machineNumber: machineNumberFilter,
  doctorId: doctorIdFilter,
});

/**
 * The exports' columns: each list's own, keyed as its table's columns, in its order (contact data
 * masked as the list masks it).
 */
export const doctorExportColumns = {
  userId: 'Doctor ID',
  userName: 'User Name',
  email: 'Email',
  phonenumber: 'Phone Number',
  createTime: 'Created Time',
  status: 'Status',
} as const;
export const technicianExportColumns = { ...doctorExportColumns, userId: 'ID' } as const;
export const patientExportColumns = {
  patientname: 'Patient Name',
  email: 'Email',
  phone: 'Phone Number',
  doctorName: 'Doctor',
  createTime: 'Created Time',
} as const;
/** Ours (issue 17): each list's filters and the columns shown for its CSV export. */
export const doctorExportQuerySchema = strictObject({
  machineNumber: machineNumberFilter,
  reveal: revealExportQuery,
  columns: exportColumnsQuery(doctorExportColumns),
});
export const technicianExportQuerySchema = strictObject({
  machineNumber: machineNumberFilter,
  columns: exportColumnsQuery(technicianExportColumns),
});
export const patientExportQuerySchema = strictObject({
  machineNumber: machineNumberFilter,
  doctorId: doctorIdFilter,
  reveal: revealExportQuery,
  columns: exportColumnsQuery(patientExportColumns),
});
export type DoctorExportQuery = z.output<typeof doctorExportQuerySchema>;
export type TechnicianExportQuery = z.output<typeof technicianExportQuerySchema>;
export type PatientExportQuery = z.output<typeof patientExportQuerySchema>;

export const doctorIdParamSchema = z.object({ id: z.uuid({ error: deviceUserMessages.invalidDoctorId }) });
export const patientIdParamSchema = z.object({ id: z.uuid({ error: deviceUserMessages.invalidPatientId }) });
export const technicianIdParamSchema = z.object({
  id: z.uuid({ error: deviceUserMessages.invalidTechnicianId }),
});

/** docs/product.md §3.5 "Doctor and technician": userId, userName, email, phonenumber, createTime, status, address (doctor). */
export const doctorSchema = z.object({
  _id: z.string(),
  userId: z.number().int(),
  userName: z.string(),
  email: z.string(),
  phonenumber: z.string().nullable(),
  address: z.string().nullable(),
  status: z.number().int(),
  createTime: z.string().nullable(),
  machineNumber: z.string(),
  /** Ours (decision 045): email, phone and address are masked for this admin. */
  contactMasked: z.boolean().optional(),
});
export type Doctor = z.infer<typeof doctorSchema>;

export const technicianSchema = doctorSchema.omit({ address: true });
export type Technician = z.infer<typeof technicianSchema>;

/** docs/product.md §3.6 "Patient": patientname, email, phone, createTime, doctorid. */
export const patientSchema = z.object({
  _id: z.string(),
  userId: z.number().int(),
  patientname: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  createTime: z.string().nullable(),
  doctorid: z.string().nullable(),
  doctorName: z.string().nullable(),
  machineNumber: z.string(),
  /** Ours (decision 045): email and phone are masked for this admin. */
  contactMasked: z.boolean().optional(),
});
export type Patient = z.infer<typeof patientSchema>;

const pageFields = { total: z.number().int(), page: z.number().int(), limit: z.number().int() };

/** docs/product.md §7.3: doctors and technicians come back as data with totalPages; patients as patientData. */
export const doctorListSchema = z.object({
  data: z.array(doctorSchema),
  totalPages: z.number().int(),
  ...pageFields,
});
export const technicianListSchema = z.object({
  data: z.array(technicianSchema),
  totalPages: z.number().int(),
  ...pageFields,
});
export const patientListSchema = z.object({
  patientData: z.array(patientSchema),
  totalPages: z.number().int(),
  ...pageFields,
});
export type DoctorList = z.infer<typeof doctorListSchema>;
export type TechnicianList = z.infer<typeof technicianListSchema>;
export type PatientList = z.infer<typeof patientListSchema>;

export const doctorListResponseSchema = envelope(doctorListSchema);
export const technicianListResponseSchema = envelope(technicianListSchema);
export const patientListResponseSchema = envelope(patientListSchema);
export const doctorResponseSchema = envelope(doctorSchema);
export const technicianResponseSchema = envelope(technicianSchema);
export const patientResponseSchema = envelope(patientSchema);
