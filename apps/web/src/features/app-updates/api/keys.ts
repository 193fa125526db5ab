import { createQueryKeys } from '#web/lib/query-keys.ts';

/** The key factory of app updates (docs/architecture.md §6, key factories). */
export const appUpdateKeys = createQueryKeys('app-updates');
