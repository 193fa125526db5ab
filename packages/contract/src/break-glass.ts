import { z } from 'zod';
import { breakGlassStates } from './break-glass-texts.ts';
import { patientSchema } from './device-users.ts';
import { idParamSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { pageQuery, strictObject } from './fields.ts';

/*
 * Break-glass access (issue 38 item 5, decision 082; HIPAA §164.312(a)(2)(ii), the emergency access
 * procedure): an admin whose role cannot reveal contact data declares an emergency with a reason and
 * sees one patient's data unmasked for a limited time; every admin whose role carries security.review
 * is told at once (bell and mail), and each use stays in their review list until one of them, never
 * the admin who broke the glass, signs it off. Paths and the console's texts: break-glass-texts.ts.
 */

/** The longest reason and sign-off note: a paragraph, not a document. */
export const breakGlassTextMax = 500;

export const breakGlassMessages = {
  reasonRequired: 'reason: say what the emergency is',
  reasonTooLong: `reason must be at most ${breakGlassTextMax} characters`,
  noteRequired: 'note: say what you checked before signing off',
  noteTooLong: `note must be at most ${breakGlassTextMax} characters`,
  stateInvalid: `state must be one of ${breakGlassStates.join(', ')}`,
  invalidId: 'Invalid emergency access id',
  notFound: 'Emergency access not found',
  /** 403 to an admin who may reveal: there is no emergency to declare. */
  mayReveal: 'Your role may reveal contact details: use Reveal, which needs no emergency',
  /** 403 on reading the patient again without an access that still lasts. */
  notActive: 'You have no emergency access to this patient now: break the glass to open it',
  ownUse: 'You cannot sign off your own emergency access: another reviewer must',
  alreadySignedOff: 'This emergency access is already signed off',
  declared: 'Emergency access opened: the security reviewers have been told',
  signedOff: 'Emergency access signed off',
} as const;

const boundedText = (required: string, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(breakGlassTextMax, tooLong);

/** POST patient/{id}/break-glass. */
export const breakGlassBodySchema = strictObject({
  reason: boundedText(breakGlassMessages.reasonRequired, breakGlassMessages.reasonTooLong),
});
export type BreakGlassBody = z.infer<typeof breakGlassBodySchema>;

/** POST break-glass/{id}/sign-off. */
export const breakGlassSignOffBodySchema = strictObject({
  note: boundedText(breakGlassMessages.noteRequired, breakGlassMessages.noteTooLong),
});
export type BreakGlassSignOffBody = z.infer<typeof breakGlassSignOffBodySchema>;

export const breakGlassListQuerySchema = pageQuery.extend({
  state: z.enum(breakGlassStates, { error: breakGlassMessages.stateInvalid }).default('open'),
});
export type BreakGlassListQuery = z.output<typeof breakGlassListQuerySchema>;

export const breakGlassIdParamSchema = idParamSchema(breakGlassMessages.invalidId);

/** One use: who broke the glass on which patient, why, for how long, and who signed it off. */
export const breakGlassAccessSchema = z.object({
  _id: z.string(),
  /** Null once the patient's record is gone; the use stays for review. */
  patientId: z.string().nullable(),
  machineNumber: z.string().nullable(),
  userEmail: z.string(),
  userName: z.string(),
  reason: z.string(),
  declaredAt: z.string(),
  expiresAt: z.string(),
  /** The access still lasts (its window has not ended). */
  active: z.boolean(),
  signedOffAt: z.string().nullable(),
  signedOffByEmail: z.string().nullable(),
  signedOffByName: z.string().nullable(),
  signOffNote: z.string().nullable(),
});
export type BreakGlassAccess = z.infer<typeof breakGlassAccessSchema>;

/** The answer of a declaration and of a read while it lasts: the patient unmasked, and the access. */
export const breakGlassGrantSchema = z.object({ patient: patientSchema, access: breakGlassAccessSchema });
export type BreakGlassGrant = z.infer<typeof breakGlassGrantSchema>;

export const breakGlassListSchema = z.object({
  accesses: z.array(breakGlassAccessSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type BreakGlassList = z.infer<typeof breakGlassListSchema>;

export const breakGlassCountSchema = z.object({ open: z.number().int() });
export type BreakGlassCount = z.infer<typeof breakGlassCountSchema>;

export const breakGlassGrantResponseSchema = envelope(breakGlassGrantSchema);
export const breakGlassAccessResponseSchema = envelope(breakGlassAccessSchema);
export const breakGlassListResponseSchema = envelope(breakGlassListSchema);
export const breakGlassCountResponseSchema = envelope(breakGlassCountSchema);
