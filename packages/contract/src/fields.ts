import { z } from 'zod';
import { unknownFieldsError } from './strict-input.ts';

export { inputMessages } from './strict-input.ts';

/** A request body or query string: unknown fields are a 400 naming them (docs/decisions/020). */
export const strictObject = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, { error: unknownFieldsError });

/**
 * A required text field: a missing value and an empty (or blank) one give the same message,
 * so the server and the form both say e.g. 'Email is required'.
 */
export const requiredText = (requiredMessage: string, max = 255) =>
  z
    .string({
      error: (issue) =>
        issue.input == null ? requiredMessage : `${requiredMessage.split(' is ')[0]} must be text`,
    })
    .trim()
    .min(1, requiredMessage)
    .max(max, `${requiredMessage.split(' is ')[0]} must be at most ${max} characters`);

/** Page and limit as the spec sends them: numbers in the query string, defaults 1 and 10. */
export const pageQuery = strictObject({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(1_000_000, 'page is too large')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(10),
});
