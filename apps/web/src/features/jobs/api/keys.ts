import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Jobs keys (docs/architecture.md §6, key factories). */
export const jobsKeys = createQueryKeys('jobs');
