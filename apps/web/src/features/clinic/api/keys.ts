import { createQueryKeys } from '#web/lib/query-keys.ts';

/** The clinic portal's keys (docs/architecture.md §6, key factories). */
export const clinicUserKeys = createQueryKeys('clinic-users');
