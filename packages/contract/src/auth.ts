import { z } from 'zod';
import { envelope } from './envelope.ts';

// The sign-in body lives in its own zod/mini file (the first screen loads it); one import path for the rest.
export { signInMessages, loginBodySchema, type LoginBody, type LoginInput } from './sign-in.ts';

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
