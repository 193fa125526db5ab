import { z } from 'zod';
import { unknownFieldsError } from './strict-input.ts';
import { mfaMessages } from './mfa.ts';

/*
 * Electronic signatures with meaning (issue 38 item 2; 21 CFR Part 11 §11.50, §11.70, §11.200):
 * second-admin approvals, licence extensions, erasure decisions and field safety notices are signed.
 * The signer types the password again (and the code when their two-step sign-in is on) and picks
 * what the signature means; the record keeps the printed name, the time, the meaning and a hash of
 * what was signed (decision 083). A signed route takes `signature: signatureInputSchema` in its body.
 */

export const signatureMeanings = ['approval', 'review', 'responsibility', 'authorship'] as const;
export type SignatureMeaning = (typeof signatureMeanings)[number];

/** What each meaning is called in the console and on the record (§11.50(a)(3)). */
export const signatureMeaningLabels: Record<SignatureMeaning, string> = {
  approval: 'Approval',
  review: 'Review',
  responsibility: 'Responsibility',
  authorship: 'Authorship',
};

export const signatureMessages = {
  required: 'Signature is required',
  meaningRequired: 'Meaning is required',
  meaningInvalid: `Meaning must be one of ${signatureMeanings.join(', ')}`,
  passwordRequired: mfaMessages.passwordRequired,
  passwordTooLong: 'Password must be at most 256 characters',
  /** The signer's own password, typed again for this signature. */
  passwordWrong: mfaMessages.passwordWrong,
  /** The signer's two-step sign-in is on: the code signs with the password. */
  codeRequired: mfaMessages.codeRequired,
  codeFormat: mfaMessages.totpFormat,
  codeInvalid: mfaMessages.codeInvalid,
  /** The line shown with a signed record; the time is formatted by the console. */
  line: (name: string, time: string, meaning: SignatureMeaning) =>
    `Signed by ${name} · ${time} · ${signatureMeaningLabels[meaning]}`,
} as const;

/** The signature part of a signed route's body (required there: a body without one says so). */
export const signatureInputSchema = z.strictObject(
  {
    meaning: z.enum(signatureMeanings, {
      error: (i) => (i.input == null ? signatureMessages.meaningRequired : signatureMessages.meaningInvalid),
    }),
    password: z
      .string({
        error: (i) => (i.input == null ? signatureMessages.passwordRequired : 'Password must be text'),
      })
      .min(1, signatureMessages.passwordRequired)
      .max(256, signatureMessages.passwordTooLong),
    code: z
      .string({ error: 'Code must be text' })
      .max(32, signatureMessages.codeFormat)
      .transform((v) => v.replace(/\s/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, signatureMessages.codeFormat))
      .optional(),
  },
  {
    error: (issue) =>
      issue.input == null && issue.code === 'invalid_type'
        ? signatureMessages.required
        : unknownFieldsError(issue as Parameters<typeof unknownFieldsError>[0]),
  },
);
export type SignatureInput = z.infer<typeof signatureInputSchema>;

/** A signature as clients see it, stored with (and shown with) the record it signs. */
export const signatureSchema = z.object({
  id: z.string(),
  /** The signer's printed name at the time of signing (§11.50(a)(1)). */
  signerName: z.string(),
  signerEmail: z.string(),
  meaning: z.enum(signatureMeanings),
  /** ISO date-time of signing (§11.50(a)(2)). */
  signedAt: z.string(),
  /** Hex SHA-256 of the canonical JSON of what was signed: binds the signature to its record (§11.70). */
  contentHash: z.string(),
});
export type Signature = z.infer<typeof signatureSchema>;
