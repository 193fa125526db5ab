import { z } from 'zod';
import { adminProfileSchema } from './auth.ts';

export type { MfaChallenge } from './auth.ts';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/*
 * Two-step sign-in (TOTP, RFC 6238) for console users: enrolment from the profile, the code step
 * after the password, recovery codes, and enrolment at sign-in when REQUIRE_MFA is on.
 * docs/decisions/ "two-step sign-in" explains the flow.
 */

export const mfaMessages = {
  codeRequired: 'Code is required',
  codeTooLong: 'Code must be at most 32 characters',
  codeMustBeText: 'code must be text',
  totpFormat: 'Code must be the 6 digits from your authenticator app',
  /** A wrong, expired or already used TOTP or recovery code. */
  codeInvalid: 'Invalid or expired code',
  challengeRequired: 'mfaToken is required',
  challengeInvalid: 'Your sign-in has expired. Please sign in with your password again.',
  passwordRequired: 'Password is required',
  passwordWrong: 'Password is incorrect',
  alreadyEnabled: 'Two-step sign-in is already on',
  notEnabled: 'Two-step sign-in is not on',
  noPendingSetup: 'Start the set-up again: no set-up is waiting for a code',
  requiredByPolicy: 'Two-step sign-in is required for console users and cannot be turned off',

  codeStep: 'Enter the code from your authenticator app',
  enrolStep: 'Set up two-step sign-in to continue',
  setupStarted: 'Scan the QR code, then enter the code your app shows',
  enabled: 'Two-step sign-in is on',
  disabled: 'Two-step sign-in is off',
  recoveryCodesRenewed: 'New recovery codes created; the old ones no longer work',
  /** An admin resetting another user's authenticator (lost phone and recovery codes). */
  resetDone: 'Two-step sign-in was reset. The user signs in with the password and sets it up again.',
  resetOwn: 'Use My Profile to change your own two-step sign-in',
  resetNotOn: 'This user has no two-step sign-in to reset',
  yourCodeRequired: 'Your code is required: your own two-step sign-in is on',
} as const;

export const recoveryCodeCount = 10;

/** A TOTP code or a recovery code (xxxxx-xxxxx); bounded so nothing large reaches the server's work. */
const codeField = z
  .string({ error: (i) => (i.input == null ? mfaMessages.codeRequired : mfaMessages.codeMustBeText) })
  .trim()
  .min(1, mfaMessages.codeRequired)
  .max(32, mfaMessages.codeTooLong);

/** Enrolment confirms with the app's code only: a recovery code does not exist yet. */
const totpField = z
  .string({ error: (i) => (i.input == null ? mfaMessages.codeRequired : mfaMessages.codeMustBeText) })
  .trim()
  .min(1, mfaMessages.codeRequired)
  .max(32, mfaMessages.codeTooLong)
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, mfaMessages.totpFormat));

const challengeField = z
  .string({ error: (i) => (i.input == null ? mfaMessages.challengeRequired : 'mfaToken must be text') })
  .min(1, mfaMessages.challengeRequired)
  .max(2048, 'mfaToken must be at most 2048 characters');

/** POST login/mfa: the code step after the password. */
export const mfaVerifyBodySchema = strictObject({ mfaToken: challengeField, code: codeField });
/** POST login/mfa/setup: REQUIRE_MFA enrolment before the first session. */
export const mfaChallengeBodySchema = strictObject({ mfaToken: challengeField });
/** POST login/mfa/confirm. */
export const mfaChallengeConfirmBodySchema = strictObject({ mfaToken: challengeField, code: totpField });
/** POST profile/mfa/confirm. */
export const mfaConfirmBodySchema = strictObject({ code: totpField });
/** POST profile/mfa/recovery-codes. */
export const mfaCodeBodySchema = strictObject({ code: codeField });
/** POST profile/mfa/disable: the password and a current code, so a borrowed session cannot do it. */
export const mfaDisableBodySchema = strictObject({
  password: z
    .string({ error: (i) => (i.input == null ? mfaMessages.passwordRequired : 'password must be text') })
    .min(1, mfaMessages.passwordRequired)
    .max(256, 'Password must be at most 256 characters'),
  code: codeField,
});
export type MfaVerifyBody = z.infer<typeof mfaVerifyBodySchema>;
export type MfaDisableBody = z.infer<typeof mfaDisableBodySchema>;

export const mfaStatusSchema = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  required: z.boolean(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** The secret as a QR code (SVG data URL), as the otpauth:// URI, and as the manual key. */
export const mfaSetupSchema = z.object({ otpauthUri: z.string(), qrCode: z.string(), manualKey: z.string() });
export type MfaSetup = z.infer<typeof mfaSetupSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/**
 * A user's two-step sign-in as the asking admin sees it (never the secret or the codes), with what a
 * reset would take from that admin: `isYou` (their own: My Profile, not a reset) and
 * `yourCodeRequired` (their own two-step sign-in is on, so the step-up before a reset asks for their
 * code too; POST users/{id}/mfa/reset has no body: the step-up is its proof, decision 046).
 */
export const userMfaStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  isYou: z.boolean(),
  yourCodeRequired: z.boolean(),
});
export type UserMfaStatus = z.infer<typeof userMfaStatusSchema>;

export const mfaStatusResponseSchema = envelope(mfaStatusSchema);
export const userMfaStatusResponseSchema = envelope(userMfaStatusSchema);
export const mfaSetupResponseSchema = envelope(mfaSetupSchema);
export const recoveryCodesResponseSchema = envelope(recoveryCodesSchema);
/** The REQUIRE_MFA enrolment ends with a session and the recovery codes, shown once. */
export const mfaEnrolledLoginResponseSchema = envelope(
  z.object({ accessToken: z.string(), admin: adminProfileSchema, recoveryCodes: z.array(z.string()) }),
);
