import { loginBodySchema, signInMessages, type LoginBody, type LoginInput } from '@app/contract/sign-in';
import { ApiError } from '#web/lib/api-client.ts';

export { signIn } from '../api/sign-in.ts';

/*
 * What the sign-in form needs only once the admin starts filling it in: the contract schema (zod
 * core is ~15 kB of a first screen that is otherwise ~100 kB), the API client and the paths. The form
 * imports this module on the first focus, pointer or key press inside it (docs/decisions/009).
 */

/** docs/product.md §8: the server msg, else the error's message, else 'Please check your email and password.' */
export function signInFailureMessage(error: unknown) {
  if (error instanceof ApiError && error.msg) return error.msg;
  if (error instanceof Error && error.message) return error.message;
  return signInMessages.failed;
}

export type SignInErrors = Partial<Record<keyof LoginInput, string>>;

/** The contract schema's first message for each field (none when the values are valid). */
export function validateSignIn(values: LoginInput): { data?: LoginBody; errors: SignInErrors } {
  const result = loginBodySchema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: SignInErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof LoginInput;
    errors[field] ??= issue.message;
  }
  return { errors };
}
