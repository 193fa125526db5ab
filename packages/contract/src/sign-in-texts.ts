/*
 * Sign-in's words, without zod: the console's layout shows one of them (the logout toast) on every
 * screen, and importing sign-in.ts for it put its schema and zod/mini there. sign-in.ts re-exports them.
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
