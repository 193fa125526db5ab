import { createQueryKeys } from '#web/lib/query-keys.ts';

/** The clinic portal's pages' keys: machines, figures, billing, usage (docs/architecture.md §6). */
export const clinicPortalKeys = createQueryKeys('clinic-portal');
