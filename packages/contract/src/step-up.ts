import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';
import { mfaCodeBodySchema, mfaDisableBodySchema, mfaMessages } from './mfa.ts';

/*
 * Step-up (issue 15 item 4, docs/decisions/046): creating or editing an admin, changing a role's
 * permissions or type, resetting another user's two-step sign-in, revoking a machine and publishing
 * a Force update need the admin's password (and code, when their two-step sign-in is on) confirmed
 * on this session within the last few minutes.
 */

/** How long one confirmation lets dangerous actions through. */
export const stepUpMinutes = 5;

export const stepUpMessages = {
  /** The 403 a dangerous action answers without a fresh confirmation; the console asks for it. */
  required: 'Confirm your password to continue',
  confirmed: 'Password confirmed',
  passwordWrong: mfaMessages.passwordWrong,
  /** The admin's own two-step sign-in is on: the code goes with the password. */
  codeRequired: mfaMessages.codeRequired,
  codeInvalid: mfaMessages.codeInvalid,
} as const;

/** POST profile/step-up: the signed-in admin's own password, and a current code (or a recovery code) when theirs is on. */
export const stepUpBodySchema = strictObject({
  password: mfaDisableBodySchema.shape.password,
  code: mfaCodeBodySchema.shape.code.optional(),
});
export type StepUpBody = z.infer<typeof stepUpBodySchema>;

/** Until when dangerous actions go through without asking again (ISO time, the server's clock). */
export const stepUpResponseSchema = envelope(z.object({ steppedUpUntil: z.string() }));

/** `data` of the 403 a dangerous action answers without a fresh confirmation. */
export type StepUpRequired = { stepUpRequired: true; needsCode: boolean };
