import { createQueryKeys } from '../../../lib/query-keys.ts';

/** Roles keys (CONVENTIONS 3). */
export const roleKeys = createQueryKeys('roles');
