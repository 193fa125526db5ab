import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Break-glass keys (docs/architecture.md §6, key factories); the bell's count sits under `all` too. */
export const breakGlassKeys = {
  ...createQueryKeys('break-glass'),
  count: () => ['break-glass', 'count'] as const,
};
