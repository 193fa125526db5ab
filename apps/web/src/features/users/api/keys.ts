import { createQueryKeys } from '../../../lib/query-keys.ts';

/** Users keys (CONVENTIONS 3). */
export const userKeys = createQueryKeys('users');

/**
 * The role dropdown reads the roles list: under the 'roles' keys, so a change made on the Roles
 * page (which invalidates roles lists) refreshes it too.
 */
export const roleOptionKeys = createQueryKeys('roles');
