import { z } from 'zod';
import { idParamSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import {
  erasureChannels,
  erasureDecisions,
  erasureLegalBases,
  erasureParts,
  erasureStates,
  type ErasurePart,
} from './erasure-texts.ts';
import { pageQuery, strictObject } from './fields.ts';
import { signatureInputSchema, signatureSchema } from './signatures.ts';

/*
 * Erasure requests (issue 38 item 4, GDPR Art. 17, decision 085): an admin records a patient's
 * request; another (or the same) admin decides it once, signed: erase everything, erase some parts
 * and keep the rest under a legal basis, or refuse under a legal basis. Paths and the console's
 * texts: erasure-texts.ts.
 */

export const erasureTextMax = 500;

export const erasureMessages = {
  patientIdInvalid: 'patientId must be the id (a UUID) of a patient',
  patientNotFound: 'patientId: no patient has this id',
  channelInvalid: `channel must be one of ${erasureChannels.join(', ')}`,
  receivedOnInvalid: 'receivedOn must be a date (YYYY-MM-DD), not in the future',
  noteTooLong: `note must be at most ${erasureTextMax} characters`,
  stateInvalid: `state must be one of ${erasureStates.join(', ')}`,
  invalidId: 'Invalid erasure request id',
  notFound: 'Erasure request not found',
  alreadyOpen: 'patientId: an erasure request for this patient already awaits a decision',
  alreadyErased: "patientId: this patient's data has already been erased",
  alreadyDecided: 'This erasure request has already been decided',
  decisionInvalid: `decision must be one of ${erasureDecisions.join(', ')}`,
  partsInvalid: `parts must be a list of ${erasureParts.join(', ')}`,
  partsRequired: 'parts: pick at least one part to erase, and not all of them (that is erase)',
  legalBasisInvalid: `legalBasis must be one of ${erasureLegalBases.join(', ')}`,
  keptBasisRequired: 'legalBasis: say why the parts not erased are kept',
  refuseBasisRequired: 'legalBasis: say on what legal basis the request is refused',
  basisNoteRequired: 'basisNote: name the legal basis',
  basisNoteTooLong: `basisNote must be at most ${erasureTextMax} characters`,
  /** 409 on erasing while a legal hold keeps the patient's records. */
  legalHold:
    "A legal hold is set on this patient or their machine: refuse the request with the legal basis 'legal-hold'",
  recorded: 'Erasure request recorded',
  erased: "The patient's data has been erased",
  erasedInPart: "The chosen parts of the patient's data have been erased",
  refused: 'Erasure request refused',
} as const;

const optionalText = (tooLong: string) =>
  z
    .string({ error: tooLong })
    .trim()
    .max(erasureTextMax, tooLong)
    .optional()
    .transform((v) => v || null);

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** POST erasure-requests: the patient, how and when the request arrived, and a note. */
export const erasureRequestBodySchema = strictObject({
  patientId: z
    .string({ error: erasureMessages.patientIdInvalid })
    .max(64, erasureMessages.patientIdInvalid)
    .trim()
    .pipe(z.uuid({ error: erasureMessages.patientIdInvalid })),
  channel: z.enum(erasureChannels, { error: erasureMessages.channelInvalid }),
  receivedOn: z
    .string({ error: erasureMessages.receivedOnInvalid })
    .max(10, erasureMessages.receivedOnInvalid)
    .regex(isoDate, erasureMessages.receivedOnInvalid)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), erasureMessages.receivedOnInvalid),
  note: optionalText(erasureMessages.noteTooLong),
});

/** The rules between a decision's fields, shared by the API's body and the console's form. */
export function checkErasureDecision(
  body: {
    decision: string;
    parts?: readonly string[] | undefined;
    legalBasis?: string | undefined;
    basisNote?: string | null | undefined;
  },
  ctx: z.RefinementCtx,
) {
  const parts = new Set(body.parts ?? []);
  if (body.decision === 'erase-in-part' && (parts.size === 0 || parts.size === erasureParts.length))
    ctx.addIssue({ code: 'custom', path: ['parts'], message: erasureMessages.partsRequired });
  if (body.decision !== 'erase' && !body.legalBasis)
    ctx.addIssue({
      code: 'custom',
      path: ['legalBasis'],
      message:
        body.decision === 'refuse' ? erasureMessages.refuseBasisRequired : erasureMessages.keptBasisRequired,
    });
  if (body.decision !== 'erase' && body.legalBasis === 'other' && !body.basisNote)
    ctx.addIssue({ code: 'custom', path: ['basisNote'], message: erasureMessages.basisNoteRequired });
}

/**
 * POST erasure-requests/{id}/decision. Erasing in part names the parts erased (at least one, not
 * all) and the legal basis for keeping the rest; refusing names its legal basis; 'other' needs words.
 */
export const erasureDecisionBodySchema = strictObject({
  decision: z.enum(erasureDecisions, { error: erasureMessages.decisionInvalid }),
  parts: z
    .array(z.enum(erasureParts, { error: erasureMessages.partsInvalid }), {
      error: erasureMessages.partsInvalid,
    })
    .optional(),
  legalBasis: z.enum(erasureLegalBases, { error: erasureMessages.legalBasisInvalid }).optional(),
  basisNote: optionalText(erasureMessages.basisNoteTooLong),
  signature: signatureInputSchema,
}).superRefine(checkErasureDecision);
export type ErasureDecisionBody = z.input<typeof erasureDecisionBodySchema>;
export type ErasureDecisionInput = z.output<typeof erasureDecisionBodySchema>;

/** The parts a decision erases: all for erase, the ones picked for erase in part, none for refuse. */
export function partsErasedBy(body: { decision: string; parts?: readonly ErasurePart[] | undefined }) {
  if (body.decision === 'erase') return [...erasureParts];
  if (body.decision === 'refuse') return [];
  return erasureParts.filter((p) => body.parts?.includes(p));
}

export const erasureListQuerySchema = pageQuery.extend({
  state: z.enum(erasureStates, { error: erasureMessages.stateInvalid }).default('open'),
});
export type ErasureListQuery = z.output<typeof erasureListQuerySchema>;

export const erasureIdParamSchema = idParamSchema(erasureMessages.invalidId);

/** One place the decision touched, and how many of its rows (values for the patient's own fields). */
export const erasureOutcomeItemSchema = z.object({
  place: z.string(),
  done: z.string(),
  count: z.number().int(),
});
export type ErasureOutcomeItem = z.infer<typeof erasureOutcomeItemSchema>;

/**
 * A request and its decision. The patient is named by their numeric id and machine (never by
 * name): the record outlives what it erased. `patientName` is the patient's name now, for the
 * admin deciding ('Erased patient' once it is erased; null when the row is gone).
 */
export const erasureRequestSchema = z.object({
  _id: z.string(),
  state: z.enum(erasureStates),
  patientId: z.string().nullable(),
  patientLabel: z.string(),
  patientName: z.string().nullable(),
  machineNumber: z.string().nullable(),
  channel: z.enum(erasureChannels),
  receivedOn: z.string(),
  note: z.string().nullable(),
  requestedAt: z.string(),
  requestedByName: z.string(),
  requestedByEmail: z.string(),
  decidedAt: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decidedByEmail: z.string().nullable(),
  partsErased: z.array(z.enum(erasureParts)),
  partsKept: z.array(z.enum(erasureParts)),
  legalBasis: z.enum(erasureLegalBases).nullable(),
  basisNote: z.string().nullable(),
  outcome: z.array(erasureOutcomeItemSchema),
  signatures: z.array(signatureSchema),
});
export type ErasureRequest = z.infer<typeof erasureRequestSchema>;

export const erasureListSchema = z.object({
  requests: z.array(erasureRequestSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type ErasureList = z.infer<typeof erasureListSchema>;

export const erasureRequestResponseSchema = envelope(erasureRequestSchema);
export const erasureListResponseSchema = envelope(erasureListSchema);
