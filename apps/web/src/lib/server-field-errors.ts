import { ApiError } from './api-client.ts';

/**
 * The fields a refused request names (`data.errors[]` of a 400, decision 004), each with its own
 * message, among `fields` (a path the form has no field for is left to the toast).
 */
export function serverFieldErrors<F extends string>(error: unknown, fields: readonly F[]) {
  if (!(error instanceof ApiError)) return [];
  const issues = (error.data as { errors?: { path?: unknown; message?: unknown }[] } | null)?.errors ?? [];
  const found: { field: F; message: string }[] = [];
  for (const issue of issues) {
    const field = fields.find((f) => f === issue.path);
    if (field && !found.some((f) => f.field === field))
      found.push({ field, message: typeof issue.message === 'string' ? issue.message : error.msg });
  }
  return found;
}
