import * as z from 'zod/mini';
import { unknownFieldsError } from './strict-input.ts';

/*
 * The sign-in body on its own, in zod/mini (tree-shakable): the sign-in screen is the first thing a
 * browser loads, and full zod would be a quarter of its JavaScript. The API validates with the same
 * schema (fastify-type-provider-zod takes any zod core schema). auth.ts re-exports everything here.
 */

/** docs/product.md §5.1 "Sign-in". */
export const signInMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  passwordRequired: 'Password is required',
  /** docs/product.md §8: shown when the server gives no msg and the error has no message. */
  failed: 'Please check your email and password.',
  /** Ours: one answer for an unknown email and a wrong password, so neither is revealed. */
  wrongCredentials: 'Invalid email or password',
  notAnAdmin: 'Invalid email or password',
  loggedOut: 'Logout Successfully',
} as const;

export const loginBodySchema = z.strictObject(
  {
    email: z.pipe(
      z
        .string({ error: (i) => (i.input == null ? signInMessages.emailRequired : 'email must be text') })
        .check(
          z.trim(),
          z.minLength(1, signInMessages.emailRequired),
          z.maxLength(254, 'Email must be at most 254 characters'),
        ),
      z.email(signInMessages.emailInvalid),
    ),
    password: z
      .string({ error: (i) => (i.input == null ? signInMessages.passwordRequired : 'password must be text') })
      .check(
        z.minLength(1, signInMessages.passwordRequired),
        z.maxLength(256, 'Password must be at most 256 characters'),
      ),
  },
  // A field the form does not have (say `role`) is refused, naming it (strict-input.ts).
  { error: unknownFieldsError },
);
export type LoginBody = z.infer<typeof loginBodySchema>;
export type LoginInput = z.input<typeof loginBodySchema>;
