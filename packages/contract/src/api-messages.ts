/*
 * The envelope's type and the API's generic messages without zod, so the web's API client (on the
 * sign-in screen) stays small. envelope.ts re-exports both next to the zod envelope schema.
 */

/** Every API answer is `{ code, msg, data }`; `code` mirrors the HTTP status. */
export type Envelope<T> = { code: number; msg: string; data: T };

/** Messages the API uses for generic answers (not listed by the spec, ours). */
export const apiMessages = {
  unauthorized: 'Unauthorized access',
  invalidToken: 'Your session has expired. Please sign in again.',
  forbidden: 'You are not allowed to do this',
  notFound: 'Not found',
  routeNotFound: 'Route not found',
  tooManyRequests: 'Too many attempts. Please try again later.',
  invalidTimezone: 'X-Timezone must be an IANA time zone such as Europe/Berlin',
  internal: 'Something went wrong on our side',
  unavailable: 'The service is temporarily unavailable. Please try again in a moment.',
} as const;
