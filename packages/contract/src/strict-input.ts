/*
 * Strict input (issue 8, docs/decisions/020): every request body and query string names its fields,
 * and a field the schema does not know is refused with a 400 that names it, instead of being
 * silently dropped. Zod-free, so the zod/mini sign-in schema can use it without full zod.
 */

export const inputMessages = {
  /** 'Unknown field: isAdmin' / 'Unknown fields: a, b'. */
  unknownFields: (keys: readonly string[]) =>
    `Unknown field${keys.length === 1 ? '' : 's'}: ${keys.join(', ')}`,
} as const;

/**
 * The `error` option of a strict object (`z.strictObject(shape, { error: unknownFieldsError })`):
 * names the unknown keys; any other problem of the object itself keeps zod's own message.
 */
export const unknownFieldsError = (issue: { code?: string; keys?: readonly string[] }) =>
  issue.code === 'unrecognized_keys' && issue.keys ? inputMessages.unknownFields(issue.keys) : undefined;
