import { z } from 'zod';
import { idParamSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { exportColumnsQuery } from './export-columns.ts';
import { pageQuery, requiredText, strictObject } from './fields.ts';
import { signatureInputSchema, signatureSchema } from './signatures.ts';
import {
  noticeExportHeaders,
  noticeMachineFilters,
  remedyKinds,
  safetyNoticeKinds,
  safetyNoticeStates,
} from './safety-notices-texts.ts';

/*
 * Field safety notices (issue 38 item 6, decision 084; EU MDR Art. 87-89, MHRA guidance): an admin
 * drafts a notice, selects the affected machines (serial ranges, app versions, a group), names the
 * remedy (a release of the app or a command batch) and sends it, signed. The affected set is frozen
 * then (serial and app version per machine); each clinic contact is mailed a link to acknowledge;
 * the status view and the regulator's CSV show per machine notified / acknowledged / remedied.
 * Paths, kinds and the console's texts: safety-notices-texts.ts.
 */

export const safetyNoticeLimits = {
  reference: 60,
  title: 200,
  description: 4000,
  remedyText: 2000,
  serialRanges: 20,
  appVersions: 50,
  ackName: 120,
} as const;

export const safetyNoticeMessages = {
  notFound: 'Field safety notice not found',
  invalidId: 'Field safety notice id is invalid',
  referenceRequired: 'Reference is required',
  referenceTaken: 'reference: another notice already has this reference',
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  remedyTextRequired: 'Remedy text is required',
  kindInvalid: `kind must be one of ${safetyNoticeKinds.join(', ')}`,
  selectionRequired: 'selection: name at least one serial range, app version or group',
  rangeEndRequired: 'Serial range needs both from and to',
  rangeReversed: 'to must not come before from',
  tooManyRanges: `selection.serialRanges: at most ${safetyNoticeLimits.serialRanges} ranges`,
  tooManyVersions: `selection.appVersionCodes: at most ${safetyNoticeLimits.appVersions} versions`,
  versionInvalid: 'selection.appVersionCodes: each must be a whole number of at least 0',
  groupInvalid: 'selection.groupId must be a group id',
  groupUnknown: 'selection.groupId: no such group',
  remedyKindInvalid: `remedy.kind must be one of ${remedyKinds.join(', ')}`,
  remedyIdInvalid: 'remedy.id must be an app update or command batch id',
  remedyUnknown: 'remedy.id: no such app update or command batch',
  noMachines: 'selection: no machine matches it',
  notDraft: 'This notice has been sent: it can no longer be changed',
  alreadySent: 'This notice has already been sent',
  notSent: 'This notice has not been sent yet',
  filterInvalid: `status must be one of ${noticeMachineFilters.join(', ')}`,
  sent: (contacts: number) =>
    `Notice sent: ${contacts} ${contacts === 1 ? 'clinic contact' : 'clinic contacts'} mailed`,
  saved: 'Draft saved',
  // The public acknowledgement.
  ackNotFound: 'Acknowledgement link not found',
  ackNameRequired: 'Name is required',
  ackAlready: 'This notice has already been acknowledged for your clinic',
  acknowledged: 'Acknowledgement recorded',
} as const;

const serial = z
  .string({ error: safetyNoticeMessages.rangeEndRequired })
  .trim()
  .min(1, safetyNoticeMessages.rangeEndRequired)
  .max(100, 'Serial must be at most 100 characters');

/**
 * Serials are compared as lower-cased text, code point by code point (as PostgreSQL's "C" collation
 * does), so "SN-0100" to "SN-0199" takes what an admin expects when serials share their width.
 */
export const serialOrder = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

export const serialRangeSchema = strictObject({ from: serial, to: serial }).superRefine((range, ctx) => {
  if (serialOrder(range.from, range.to) > 0)
    ctx.addIssue({ code: 'custom', path: ['to'], message: safetyNoticeMessages.rangeReversed });
});

/**
 * Which machines a notice is about: every kind named narrows (a machine must match each), a kind's
 * values widen (any range, any version). Customers are the seam for issue "clinics": a selection by
 * customer joins here once customers exist.
 */
export const noticeSelectionSchema = strictObject({
  serialRanges: z
    .array(serialRangeSchema)
    .max(safetyNoticeLimits.serialRanges, safetyNoticeMessages.tooManyRanges)
    .default([]),
  appVersionCodes: z
    .array(z.number({ error: safetyNoticeMessages.versionInvalid }).int().min(0))
    .max(safetyNoticeLimits.appVersions, safetyNoticeMessages.tooManyVersions)
    .default([]),
  groupId: z.uuid({ error: safetyNoticeMessages.groupInvalid }).nullable().default(null),
});
export type NoticeSelection = z.output<typeof noticeSelectionSchema>;

export const noticeRemedySchema = strictObject({
  kind: z.enum(remedyKinds, { error: safetyNoticeMessages.remedyKindInvalid }),
  id: z.uuid({ error: safetyNoticeMessages.remedyIdInvalid }),
});
export type NoticeRemedy = z.output<typeof noticeRemedySchema>;

/** POST safety-notices (a draft) and PUT safety-notices/{id} (while it is a draft). */
export const safetyNoticeBodySchema = strictObject({
  reference: requiredText(safetyNoticeMessages.referenceRequired, safetyNoticeLimits.reference),
  title: requiredText(safetyNoticeMessages.titleRequired, safetyNoticeLimits.title),
  description: requiredText(safetyNoticeMessages.descriptionRequired, safetyNoticeLimits.description),
  kind: z.enum(safetyNoticeKinds, { error: safetyNoticeMessages.kindInvalid }),
  remedyText: requiredText(safetyNoticeMessages.remedyTextRequired, safetyNoticeLimits.remedyText),
  selection: noticeSelectionSchema,
  remedy: noticeRemedySchema.nullable().default(null),
}).superRefine((body, ctx) => {
  const s = body.selection;
  if (s.serialRanges.length === 0 && s.appVersionCodes.length === 0 && !s.groupId)
    ctx.addIssue({ code: 'custom', path: ['selection'], message: safetyNoticeMessages.selectionRequired });
});
export type SafetyNoticeBody = z.input<typeof safetyNoticeBodySchema>;
export type SafetyNoticeInput = z.output<typeof safetyNoticeBodySchema>;

/** POST safety-notices/{id}/send: sending is signed (issue 38 item 2, decision 083). */
export const sendSafetyNoticeBodySchema = strictObject({ signature: signatureInputSchema });
export type SendSafetyNoticeBody = z.input<typeof sendSafetyNoticeBodySchema>;

export const safetyNoticeIdParamSchema = idParamSchema(safetyNoticeMessages.invalidId);
export const safetyNoticeListQuerySchema = pageQuery;
export const noticeMachinesQuerySchema = pageQuery.extend({
  status: z.enum(noticeMachineFilters, { error: safetyNoticeMessages.filterInvalid }).optional(),
});
export type NoticeMachinesQuery = z.output<typeof noticeMachinesQuerySchema>;

const counts = z.object({
  machines: z.number().int(),
  contacts: z.number().int(),
  notified: z.number().int(),
  acknowledged: z.number().int(),
  noContact: z.number().int(),
  remedied: z.number().int(),
});
export type NoticeCounts = z.infer<typeof counts>;

export const safetyNoticeSchema = z.object({
  _id: z.string(),
  reference: z.string(),
  title: z.string(),
  description: z.string(),
  kind: z.enum(safetyNoticeKinds),
  remedyText: z.string(),
  selection: z.object({
    serialRanges: z.array(z.object({ from: z.string(), to: z.string() })),
    appVersionCodes: z.array(z.number().int()),
    groupId: z.string().nullable(),
    /** The group's name as it is now (null once the group is gone). */
    groupName: z.string().nullable(),
  }),
  /** The remedy with what the console shows of it: a release's version, a batch's command. */
  remedy: z
    .object({
      kind: z.enum(remedyKinds),
      id: z.string(),
      label: z.string(),
      versionCode: z.number().nullable(),
    })
    .nullable(),
  state: z.enum(safetyNoticeStates),
  createdAt: z.string(),
  createdBy: z.string(),
  sentAt: z.string().nullable(),
  sentBy: z.string().nullable(),
  /** Once sent: the frozen set's counts. */
  counts: counts.nullable(),
  /** Once sent: the sender's signature (printed name, time, meaning, hash of what was sent). */
  signature: signatureSchema.nullable(),
});
export type SafetyNotice = z.infer<typeof safetyNoticeSchema>;

export const safetyNoticeListSchema = z.object({
  notices: z.array(safetyNoticeSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

const machineBase = {
  deviceId: z.string().nullable(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  appVersionCode: z.number().int().nullable(),
  appVersionName: z.string().nullable(),
  /** The clinic's contact (its subscription's customer email); null: no contact. */
  contact: z.string().nullable(),
};

export const noticePreviewSchema = z.object({
  machines: z.array(z.object(machineBase)),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  contacts: z.number().int(),
  noContact: z.number().int(),
});
export type NoticePreview = z.infer<typeof noticePreviewSchema>;

export const noticeMachineSchema = z.object({
  ...machineBase,
  status: z.enum(['notified', 'acknowledged', 'no-contact']),
  notifiedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  remediedAt: z.string().nullable(),
});
export type NoticeMachine = z.infer<typeof noticeMachineSchema>;

export const noticeMachinesSchema = z.object({
  machines: z.array(noticeMachineSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  counts,
});
export type NoticeMachines = z.infer<typeof noticeMachinesSchema>;

/** The public acknowledgement page: the notice and the clinic's own machines, nothing else. */
export const acknowledgementSchema = z.object({
  reference: z.string(),
  title: z.string(),
  description: z.string(),
  kind: z.enum(safetyNoticeKinds),
  remedyText: z.string(),
  sentAt: z.string(),
  machines: z.array(z.object({ machineNumber: z.string(), serialNumber: z.string() })),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
});
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;

export const acknowledgementTokenParamSchema = z.object({
  // Any text: an unknown or malformed token is the same 404 (nothing tells a guess apart).
  token: z.string().max(200, safetyNoticeMessages.ackNotFound),
});
export const acknowledgeBodySchema = strictObject({
  name: requiredText(safetyNoticeMessages.ackNameRequired, safetyNoticeLimits.ackName),
});
export type AcknowledgeBody = z.infer<typeof acknowledgeBodySchema>;

export const safetyNoticeResponseSchema = envelope(safetyNoticeSchema);
export const safetyNoticeListResponseSchema = envelope(safetyNoticeListSchema);
export const noticePreviewResponseSchema = envelope(noticePreviewSchema);
export const noticeMachinesResponseSchema = envelope(noticeMachinesSchema);
export const acknowledgementResponseSchema = envelope(acknowledgementSchema);

export const noticeExportQuerySchema = strictObject({
  status: z.enum(noticeMachineFilters, { error: safetyNoticeMessages.filterInvalid }).optional(),
  columns: exportColumnsQuery(noticeExportHeaders),
});
