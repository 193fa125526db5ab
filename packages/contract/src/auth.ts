import { z } from 'zod';
import { envelope } from './envelope.ts';

/** SPEC 5 "Sign-in". */
export const signInMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  passwordRequired: 'Password is required',
  /** SPEC 8: shown when the server gives no msg and the error has no message. */
  failed: 'Please check your email and password.',
  /** Ours: one answer for an unknown email and a wrong password, so neither is revealed. */
  wrongCredentials: 'Invalid email or password',
  notAnAdmin: 'Invalid email or password',
  loggedOut: 'Logout Successfully',
} as const;

export const loginBodySchema = z.object({
  email: z
    .string({ error: (i) => (i.input == null ? signInMessages.emailRequired : 'email must be text') })
    .trim()
    .min(1, signInMessages.emailRequired)
    .max(254, 'Email must be at most 254 characters')
    .pipe(z.email(signInMessages.emailInvalid)),
  password: z
    .string({ error: (i) => (i.input == null ? signInMessages.passwordRequired : 'password must be text') })
    .min(1, signInMessages.passwordRequired)
    .max(256, 'Password must be at most 256 characters'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const roleTypes = ['app', 'admin'] as const;
export type RoleType = (typeof roleTypes)[number];
/** The screen labels the admin type 'Web' (SPEC 3 "Role"). */
export const roleTypeLabels: Record<RoleType, string> = { app: 'App', admin: 'Web' };

export const adminProfileSchema = z.object({
  _id: z.string(),
  userName: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  profileImage: z.string().nullable(),
  role: z.object({ _id: z.string(), roleName: z.string(), type: z.enum(roleTypes) }).nullable(),
  isDeletable: z.boolean(),
});
export type AdminProfile = z.infer<typeof adminProfileSchema>;

export const loginResponseSchema = envelope(z.object({ accessToken: z.string(), admin: adminProfileSchema }));
export const profileResponseSchema = envelope(adminProfileSchema);
export const emptyResponseSchema = envelope(z.null());
