import { z } from 'zod';
import { strictObject } from './fields.ts';
import { envelope } from './envelope.ts';

/**
 * Patients' and doctors' contact data (email, phone, address) reach only admins whose role carries
 * patients.reveal; everyone else gets these masks, from the server, in lists and details alike
 * (decision 045). Enough is left to tell two records apart, not to reach the person.
 */
const dots = '•••';

/** j•••@example.com: the first character of the name, then the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return dots;
  return `${email[0]}${dots}${email.slice(at)}`;
}

/** ••••••1234: the last four digits; a number of four digits or fewer shows none. */
export function maskPhone(phone: string | null): string | null {
  if (phone === null) return null;
  const digits = phone.replace(/\D/g, '');
  return digits.length > 4 ? `••••••${digits.slice(-4)}` : '••••••';
}

/** An address says where someone lives: nothing of it is shown. */
export const maskAddress = (address: string | null): string | null => (address === null ? null : '••••••');

/** A patient's name in an export that is not unmasked (decision 058): nothing of it is shown. */
export const maskName = (name: string): string => (name === '' ? '' : dots.repeat(2));

/**
 * Ours (issue 17, decision 058): an export of health data asks for its values unmasked with
 * `reveal=true`; only a role with patients.reveal may, and the export's audit row says so.
 */
export const revealExportQuery = z
  .enum(['true', 'false'], { error: 'reveal must be true or false' })
  .optional();

/** Why an admin reveals a record's contact data: kept with the audit row (decision 045). */
export const revealReasons = [
  'Treatment follow-up',
  'Patient request',
  'Clinical safety',
  'Billing',
  'Other',
] as const;

export const revealMessages = {
  reasonRequired: 'reason: choose why you need to see this',
  noteRequired: 'note: say why, when the reason is Other',
  title: 'Reveal contact details',
  intro: 'Revealing is recorded with your name, the time and the reason you give.',
  reveal: 'Reveal',
  revealing: 'Revealing...',
  reasonLabel: 'Reason',
  noteLabel: 'Details',
  masked: 'Masked: your role cannot see contact details without revealing them.',
  accessHistoryEmpty: 'No one has viewed this record yet.',
} as const;

export const revealBodySchema = strictObject({
  reason: z.enum(revealReasons, { error: revealMessages.reasonRequired }),
  note: z
    .string({ error: 'note must be text' })
    .trim()
    .max(500, 'note must be at most 500 characters')
    .optional(),
}).superRefine((body, ctx) => {
  if (body.reason === 'Other' && !body.note?.trim())
    ctx.addIssue({ code: 'custom', path: ['note'], message: revealMessages.noteRequired });
});
export type RevealBody = z.infer<typeof revealBodySchema>;

/**
 * One look at a patient's or doctor's record, from the audit trail: its detail viewed, its contact
 * data revealed, or a list read that returned it (decision 048).
 */
export const accessHistoryEntrySchema = z.object({
  _id: z.string(),
  at: z.string().nullable(),
  userEmail: z.string().nullable(),
  /** The client's address the request came from. */
  location: z.string().nullable(),
  action: z.enum(['Viewed', 'Revealed', 'Listed']),
  /** For a reveal: the fields shown and the reason given. */
  detail: z.string().nullable(),
});
export type AccessHistoryEntry = z.infer<typeof accessHistoryEntrySchema>;
export const accessHistorySchema = z.object({
  history: z.array(accessHistoryEntrySchema),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AccessHistory = z.infer<typeof accessHistorySchema>;
export const accessHistoryResponseSchema = envelope(accessHistorySchema);
