import { z } from 'zod';
import { exportColumnsQuery } from './export-columns.ts';
import { envelope } from './envelope.ts';
import { facetValueSchema } from './facets.ts';
import { pageQuery, strictObject } from './fields.ts';
import { revealExportQuery } from './masking.ts';

export const treatmentMessages = {
  // docs/product.md §2.8 "Tables and pagers" and docs/product.md §8.
  empty: 'No Treatment found.',
  noneFound: 'No treatment found',
  // Ours.
  notFound: 'Treatment record not found',
  invalidId: 'Invalid treatment record id',
  doctorIdInvalid: 'doctorId must be a valid id',
  patientIdInvalid: 'patientId must be a valid id',
  machineNumberInvalid: 'machineNumber must be at most 64 characters',
  searchTooLong: 'search must be at most 100 characters',
  fromInvalid: 'from must be a date (YYYY-MM-DD)',
  toInvalid: 'to must be a date (YYYY-MM-DD)',
  treatmentPlanInvalid: 'treatmentPlan must be 1 to 200 characters',
  treatmentDeviceInvalid: 'treatmentDevice must be 1 to 200 characters',
} as const;

/** A facet's value: the plan or device exactly as the app recorded it. */
const recordedText = (message: string) => z.string().trim().min(1, message).max(200, message).optional();

/** Treatment list: page, limit, machineNumber, doctorId (and patientId), optional search and UTC day range. */
export const treatmentListQuerySchema = pageQuery.extend({
  machineNumber: z.string().trim().min(1).max(64, treatmentMessages.machineNumberInvalid).optional(),
  doctorId: z.uuid({ error: treatmentMessages.doctorIdInvalid }).optional(),
  patientId: z.uuid({ error: treatmentMessages.patientIdInvalid }).optional(),
  search: z.string().trim().max(100, treatmentMessages.searchTooLong).optional(),
  /** Ours (issue 35): the facets, exactly one plan and one treatment device. */
  treatmentPlan: recordedText(treatmentMessages.treatmentPlanInvalid),
  treatmentDevice: recordedText(treatmentMessages.treatmentDeviceInvalid),
  /**
   * Ours (the dashboard's figures link here): treatments that took place (started; issue 35) on or
   * after this UTC day, and on or before `to`.
   */
  from: z.iso
    .date({ error: treatmentMessages.fromInvalid })
    .max(10, treatmentMessages.fromInvalid)
    .optional(),
  to: z.iso.date({ error: treatmentMessages.toInvalid }).max(10, treatmentMessages.toInvalid).optional(),
});

/**
 * The export's columns, keyed as the list's, in its order; the patient's name masked unless
 * revealed (decision 058).
 */
export const treatmentExportColumns = {
  userName: 'User Name',
  treatmentDevice: 'Treatment Device',
  treatmentPlan: 'Treatment Plan',
  treatmentStartTime: 'Start Time',
  treatmentDuration: 'Duration (min)',
  totalEnergyOutput: 'Total Energy Output (J)',
} as const;
/** The list's filters without its page: what its export and its facets take. */
const { page: _page, limit: _limit, ...treatmentFilterShape } = treatmentListQuerySchema.shape;
/** Ours (issue 17): the list's filters and the columns shown for its CSV export. */
export const treatmentExportQuerySchema = strictObject({
  ...treatmentFilterShape,
  reveal: revealExportQuery,
  columns: exportColumnsQuery(treatmentExportColumns),
});
export type TreatmentExportQuery = z.output<typeof treatmentExportQuerySchema>;

export const treatmentIdParamSchema = z.object({ id: z.uuid({ error: treatmentMessages.invalidId }) });

export const treatmentImageSchema = z.object({ id: z.string(), url: z.string() });

/** docs/product.md §3.7 "Treatment". Durations are minutes; energies are joules. */
export const treatmentSchema = z.object({
  _id: z.string(),
  userName: z.string(),
  treatmentDevice: z.string(),
  treatmentPlan: z.string(),
  treatmentStartTime: z.string().nullable(),
  treatmentEndTime: z.string().nullable(),
  treatmentDuration: z.number().nullable(),
  treatmentEnergy: z.number().nullable(),
  totalEnergyOutput: z.number().nullable(),
  machineNumber: z.string(),
  doctorId: z.string().nullable(),
  doctorName: z.string().nullable(),
  patientId: z.string().nullable(),
  createdAt: z.string(),
});
export type Treatment = z.infer<typeof treatmentSchema>;

export const treatmentDetailSchema = treatmentSchema.extend({
  treatmentImages: z.array(treatmentImageSchema),
});
export type TreatmentDetail = z.infer<typeof treatmentDetailSchema>;

/** docs/product.md §7.3: the treatment list answers data and total_pages. */
export const treatmentListSchema = z.object({
  data: z.array(treatmentSchema),
  total_pages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TreatmentList = z.infer<typeof treatmentListSchema>;

export const treatmentListResponseSchema = envelope(treatmentListSchema);

/**
 * Ours (issue 35): what Treatment Records' facets offer under the list's other filters, each value
 * with its count (a facet's own choice does not narrow its own values), most first.
 */
export const treatmentFacetsQuerySchema = strictObject(treatmentFilterShape);
export type TreatmentFacetsQuery = z.output<typeof treatmentFacetsQuerySchema>;
export const treatmentFacetsSchema = z.object({
  treatmentPlans: z.array(facetValueSchema),
  treatmentDevices: z.array(facetValueSchema),
});
export type TreatmentFacets = z.infer<typeof treatmentFacetsSchema>;
export const treatmentFacetsResponseSchema = envelope(treatmentFacetsSchema);
/** The most values a treatment facet offers; rarer ones are reached by search. */
export const treatmentFacetLimit = 100;
export const treatmentResponseSchema = envelope(treatmentDetailSchema);
