import * as z from 'zod/mini';
import { signInMessages } from './sign-in-texts.ts';
import { unknownFieldsError } from './strict-input.ts';

export { signInMessages };

/*
 * The sign-in body on its own, in zod/mini (tree-shakable): the sign-in screen is the first thing a
 * browser loads, and full zod would be a quarter of its JavaScript. The API validates with the same
 * schema (fastify-type-provider-zod takes any zod core schema). auth.ts re-exports everything here.
 */

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
