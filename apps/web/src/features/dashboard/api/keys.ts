import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Dashboard keys (docs/architecture.md §6, key factories). */
export const dashboardKeys = {
  ...createQueryKeys('dashboard'),
  operations: () => ['dashboard', 'operations'] as const,
};
