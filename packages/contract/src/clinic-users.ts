import { z } from 'zod';
import { accountMessages, passwordMinLength } from './account.ts';
import { adminProfileSchema, loginResponseSchema } from './auth.ts';
import { clinicRoles, clinicUserMessages as m } from './clinic-users-texts.ts';
import { envelope } from './envelope.ts';
import { requiredText, strictObject } from './fields.ts';

/*
 * Clinic users' requests and answers (issue 39 item 3, decision 088). The texts and paths are in
 * clinic-users-texts.ts (zod-free); the password follows the console's own rule (account.ts).
 */

const email = requiredText(m.emailRequired, 254).pipe(z.email(m.emailInvalid));
const role = z.enum(clinicRoles, {
  error: (i) => (i.input == null ? m.roleRequired : m.roleInvalid),
});

/** POST admin/customers/:id/invitations: the supplier invites a clinic's manager (or staff). */
export const adminInvitationBodySchema = strictObject({ email, role: role.default('manager') });

/** POST clinic/users: a manager invites a colleague of their own clinic. */
export const clinicInvitationBodySchema = strictObject({ email, role: role.default('staff') });
export type ClinicInvitationBody = z.input<typeof clinicInvitationBodySchema>;

export const customerIdParamSchema = strictObject({
  id: z.uuid({ error: m.customerNotFound }),
});
export const clinicUserIdParamSchema = strictObject({ id: z.uuid({ error: m.userNotFound }) });
/** The link's token: 256 random bits in base64url; anything else is simply not found. */
export const invitationTokenParamSchema = strictObject({
  token: z.string().min(1, m.invitationNotFound).max(128, m.invitationNotFound),
});

const password = z
  .string({ error: (i) => (i.input == null ? accountMessages.passwordRequired : 'password must be text') })
  .min(1, accountMessages.passwordRequired)
  .min(passwordMinLength, accountMessages.passwordTooShort)
  .max(256, 'Password must be at most 256 characters');

/** POST clinic-invitations/:token: the invited person's name and password. */
export const acceptInvitationBodySchema = strictObject({
  firstName: requiredText(m.firstNameRequired, 100),
  lastName: requiredText(m.lastNameRequired, 100),
  password,
});
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBodySchema>;

/** The /invite/{token} form: the same, and the password typed twice. */
export const acceptInvitationFormSchema = strictObject({
  firstName: requiredText(m.firstNameRequired, 100),
  lastName: requiredText(m.lastNameRequired, 100),
  password,
  confirmPassword: z
    .string()
    .min(1, accountMessages.confirmPasswordRequired)
    .max(256, 'Confirm password must be at most 256 characters'),
}).refine((v) => v.password === v.confirmPassword, {
  message: accountMessages.passwordsMustMatch,
  path: ['confirmPassword'],
});
export type AcceptInvitationForm = z.infer<typeof acceptInvitationFormSchema>;

/** What the invitation page shows before the password is set. */
export const invitationSchema = z.object({
  customerName: z.string(),
  email: z.string(),
  role: z.enum(clinicRoles),
  expiresAt: z.string(),
  /** The clinic requires two-step sign-in: it is set up before the portal opens. */
  requireMfa: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;
export const invitationResponseSchema = envelope(invitationSchema);
/** Accepting answers as a sign-in does: a session, or the enrolment step when the clinic requires it. */
export const acceptInvitationResponseSchema = loginResponseSchema;

export const clinicUserSchema = z.object({
  _id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  role: z.enum(clinicRoles),
  mfaEnabled: z.boolean(),
  createdAt: z.string(),
});
export type ClinicUser = z.infer<typeof clinicUserSchema>;

export const pendingInvitationSchema = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(clinicRoles),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

/** A clinic's people: its users and the invitations still waiting (a clinic has tens, not thousands). */
export const clinicUsersSchema = z.object({
  users: z.array(clinicUserSchema),
  invitations: z.array(pendingInvitationSchema),
});
export type ClinicUsers = z.infer<typeof clinicUsersSchema>;
export const clinicUsersResponseSchema = envelope(clinicUsersSchema);
export const pendingInvitationResponseSchema = envelope(pendingInvitationSchema);
export const clinicMeResponseSchema = envelope(adminProfileSchema);
