/** Texts the console shows on its own (SPEC 8), not tied to one form or one API answer. */
export const webMessages = {
  /** Any failed call without a server msg. */
  genericError: 'An error occurred',
  /** The router's error screen (SPEC 8). */
  unexpectedError: 'Unexpected Application Error!',
} as const;
