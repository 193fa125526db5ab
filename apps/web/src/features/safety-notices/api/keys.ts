import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Field safety notices' keys (docs/architecture.md §6): a notice's preview and status sit under its detail. */
export const safetyNoticeKeys = createQueryKeys('safety-notices');
