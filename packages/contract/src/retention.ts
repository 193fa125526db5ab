import { z } from 'zod';
import { envelope } from './envelope.ts';
import { pageQuery, strictObject } from './fields.ts';
import {
  legalHoldStates,
  legalHoldSubjectKinds,
  retentionActions,
  retentionRecordTypes,
} from './retention-texts.ts';

/*
 * Retention (issue 38 item 3, decision 086): the schedule (per record type, with per-country
 * overrides for health data), the runs and what each removed, and legal holds. Paths and the
 * console's texts: retention-texts.ts.
 */

export const legalHoldTextMax = 500;

export const retentionMessages = {
  subjectKindInvalid: `subjectKind must be one of ${legalHoldSubjectKinds.join(', ')}`,
  subjectIdInvalid: 'subjectId must be the id (a UUID) of a patient or machine',
  reasonRequired: 'reason: say why the records are held',
  reasonTooLong: `reason must be at most ${legalHoldTextMax} characters`,
  liftReasonRequired: 'reason: say why the hold is lifted',
  stateInvalid: `state must be one of ${legalHoldStates.join(', ')}`,
  invalidId: 'Invalid legal hold id',
  notFound: 'Legal hold not found',
  subjectNotFound: (kind: string) => `subjectId: no ${kind === 'device' ? 'machine' : kind} has this id`,
  alreadyHeld: 'subjectId: a legal hold on this subject is already in force',
  alreadyLifted: 'This legal hold is already lifted',
  placed: 'Legal hold placed',
  lifted: 'Legal hold lifted',
} as const;

const boundedText = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(legalHoldTextMax, retentionMessages.reasonTooLong);

/** POST legal-holds. */
export const legalHoldBodySchema = strictObject({
  subjectKind: z.enum(legalHoldSubjectKinds, { error: retentionMessages.subjectKindInvalid }),
  subjectId: z.uuid({ error: retentionMessages.subjectIdInvalid }),
  reason: boundedText(retentionMessages.reasonRequired),
});
export type LegalHoldBody = z.input<typeof legalHoldBodySchema>;

/** POST legal-holds/{id}/lift. */
export const legalHoldLiftBodySchema = strictObject({
  reason: boundedText(retentionMessages.liftReasonRequired),
});
export type LegalHoldLiftBody = z.infer<typeof legalHoldLiftBodySchema>;

export const legalHoldListQuerySchema = pageQuery.extend({
  state: z.enum(legalHoldStates, { error: retentionMessages.stateInvalid }).optional(),
});
export type LegalHoldListQuery = z.output<typeof legalHoldListQuerySchema>;

export const legalHoldIdParamSchema = z.object({ id: z.uuid({ error: retentionMessages.invalidId }) });

export const legalHoldSchema = z.object({
  _id: z.string(),
  subjectKind: z.enum(legalHoldSubjectKinds),
  subjectId: z.string(),
  subjectLabel: z.string(),
  reason: z.string(),
  placedAt: z.string(),
  placedByEmail: z.string(),
  liftedAt: z.string().nullable(),
  liftedByEmail: z.string().nullable(),
  liftReason: z.string().nullable(),
});
export type LegalHold = z.infer<typeof legalHoldSchema>;

export const legalHoldListSchema = z.object({
  holds: z.array(legalHoldSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type LegalHoldList = z.infer<typeof legalHoldListSchema>;

/** A period: days, or calendar years for health data; null keeps the rows forever. */
const periodSchema = z.object({ days: z.number().int().nullable(), years: z.number().int().nullable() });
export type RetentionPeriod = z.infer<typeof periodSchema>;

export const retentionScheduleEntrySchema = z.object({
  recordType: z.enum(retentionRecordTypes),
  label: z.string(),
  health: z.boolean(),
  period: periodSchema,
  /** From when the period counts (e.g. "the treatment", "the end of the session"). */
  measuredFrom: z.string(),
  action: z.enum(retentionActions),
  countryOverrides: z.array(z.object({ country: z.string(), years: z.number().int() })),
  /** The environment variable that sets the period, when one does. */
  setting: z.string().nullable(),
});
export type RetentionScheduleEntry = z.infer<typeof retentionScheduleEntrySchema>;

export const retentionScheduleSchema = z.object({
  entries: z.array(retentionScheduleEntrySchema),
  healthMinimumYears: z.number().int(),
  /** Seconds between runs (0: the job is off). */
  everySeconds: z.number().int(),
});
export type RetentionSchedule = z.infer<typeof retentionScheduleSchema>;

export const retentionRunSchema = z.object({
  _id: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  removed: z.record(z.string(), z.number().int()),
});
export type RetentionRun = z.infer<typeof retentionRunSchema>;

export const retentionRunListSchema = z.object({
  runs: z.array(retentionRunSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type RetentionRunList = z.infer<typeof retentionRunListSchema>;

export const legalHoldResponseSchema = envelope(legalHoldSchema);
export const legalHoldListResponseSchema = envelope(legalHoldListSchema);
export const retentionScheduleResponseSchema = envelope(retentionScheduleSchema);
export const retentionRunListResponseSchema = envelope(retentionRunListSchema);
