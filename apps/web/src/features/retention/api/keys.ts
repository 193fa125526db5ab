import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Retention keys (docs/architecture.md §6, key factories). */
export const retentionKeys = {
  ...createQueryKeys('retention'),
  schedule: () => ['retention', 'schedule'] as const,
  runs: (params: object) => ['retention', 'runs', params] as const,
  holds: (params: object) => ['retention', 'holds', params] as const,
};
