import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Alarms keys (docs/architecture.md §6, key factories); the bell's count sits under `all` too. */
export const alarmKeys = { ...createQueryKeys('alarms'), count: () => ['alarms', 'count'] as const };
