import { missingPermissionOf, type Permission } from '@app/contract/permissions';
import { ApiError } from './api-client.ts';

/**
 * The permission a failed call was refused for (the API's 403 naming it), or null for any other
 * failure. The console shows its no-access page for it instead of a toast (decision 047).
 */
export const deniedPermissionOf = (error: unknown): Permission | null =>
  error instanceof ApiError && error.status === 403 ? missingPermissionOf(error.msg) : null;
