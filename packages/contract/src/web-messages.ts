/** Texts the console shows on its own (docs/product.md §8), not tied to one form or one API answer. */
export const webMessages = {
  /** Any failed call without a server msg. */
  genericError: 'An error occurred',
  /** The router's error screen (docs/product.md §8). */
  unexpectedError: 'Unexpected Application Error!',
} as const;
