import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Machine groups keys (docs/architecture.md §6, key factories). */
export const groupKeys = createQueryKeys('groups');
