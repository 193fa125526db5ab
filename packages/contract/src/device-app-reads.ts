import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/*
 * What the machines' app reads back (docs/device-api.md): the doctors, patients and treatments of
 * its own machine, scoped to the signed-in person. The OpenAPI tag is "device".
 */

export const appDoctorSchema = z.object({
  _id: z.string(),
  /** The id the app generated when it registered the doctor (null for doctors made elsewhere). */
  clientId: z.string().nullable(),
  userId: z.number().int(),
  userName: z.string(),
  email: z.string(),
  phonenumber: z.string().nullable(),
  createTime: z.string().nullable(),
});
export const appPatientSchema = z.object({
  _id: z.string(),
  clientId: z.string().nullable(),
  userId: z.number().int(),
  patientname: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  createTime: z.string().nullable(),
});
export const appTreatmentSchema = z.object({
  _id: z.string(),
  clientId: z.string().nullable(),
  patientId: z.string().nullable(),
  userName: z.string(),
  treatmentPlan: z.string(),
  treatmentStartTime: z.string().nullable(),
  treatmentEndTime: z.string().nullable(),
  imageCount: z.number().int(),
});
export const appListQuerySchema = strictObject({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(50),
});
const appList = <T extends z.ZodType>(item: T) =>
  envelope(
    z.object({
      data: z.array(item),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
    }),
  );
export const appDoctorListResponseSchema = appList(appDoctorSchema);
export const appPatientListResponseSchema = appList(appPatientSchema);
export const appTreatmentListResponseSchema = appList(appTreatmentSchema);
