import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Roles keys (docs/architecture.md §6, key factories). */
export const roleKeys = createQueryKeys('roles');
