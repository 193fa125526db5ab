import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Erasure request keys (docs/architecture.md §6, key factories). */
export const erasureKeys = createQueryKeys('erasure-requests');
