import { createQueryKeys } from '#web/lib/query-keys.ts';

/** The signed-in admin's own profile: `profileKeys.detail('me')`. */
export const profileKeys = createQueryKeys('profile');
