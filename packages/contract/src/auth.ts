import { z } from 'zod';
import { envelope } from './envelope.ts';

// The sign-in body lives in its own zod/mini file (the first screen loads it); one import path for the rest.
export { signInMessages, loginBodySchema } from './sign-in.ts';

export const roleTypes = ['app', 'admin'] as const;
export type RoleType = (typeof roleTypes)[number];
/** The screen labels the admin type 'Web' (docs/product.md §3.3). */
export const roleTypeLabels: Record<RoleType, string> = { app: 'App', admin: 'Web' };
/**
 * Ours (issue 39 item 3): every kind of role a user may hold. `clinic` is a customer's own user
 * (clinic-users-texts.ts); its two fixed roles are made by a migration, never by the Roles screen,
 * whose types stay the spec's two (decision 088).
 */
export const roleKinds = ['app', 'admin', 'clinic'] as const;
export type RoleKind = (typeof roleKinds)[number];

export const adminProfileSchema = z.object({
  _id: z.string(),
  userName: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  profileImage: z.string().nullable(),
  role: z
    .object({
      _id: z.string(),
      roleName: z.string(),
      type: z.enum(roleKinds),
      /** Ours: the role's permissions (permissions.ts), so the console can follow them. */
      permissions: z.array(z.string()).optional(),
    })
    .nullable(),
  isDeletable: z.boolean(),
  /** Ours (issue 39): a clinic user's clinic and role in it; absent for the supplier's own users. */
  clinic: z.object({ _id: z.string(), name: z.string(), role: z.enum(['manager', 'staff']) }).optional(),
});
export type AdminProfile = z.infer<typeof adminProfileSchema>;

export const loginSessionSchema = z.object({ accessToken: z.string(), admin: adminProfileSchema });
/**
 * Instead of a session, when a second step is due: `verify` (ask for the TOTP or a recovery code)
 * or `enrol` (REQUIRE_MFA and none set up). The token only serves the two-step routes (mfa.ts).
 */
export const mfaChallengeSchema = z.object({ mfa: z.enum(['verify', 'enrol']), mfaToken: z.string() });
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;
export const loginResponseSchema = envelope(z.union([loginSessionSchema, mfaChallengeSchema]));
export const loginSessionResponseSchema = envelope(loginSessionSchema);
export const profileResponseSchema = envelope(adminProfileSchema);
export const emptyResponseSchema = envelope(z.null());
