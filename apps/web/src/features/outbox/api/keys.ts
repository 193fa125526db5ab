import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Outbox keys (docs/architecture.md §6, key factories). */
export const outboxKeys = createQueryKeys('outbox');
