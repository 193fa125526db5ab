import { createQueryKeys } from '../../../lib/query-keys.ts';

/** The key factory of app updates (CONVENTIONS 3). */
export const appUpdateKeys = createQueryKeys('app-updates');
