import { createQueryKeys } from '../../../lib/query-keys.ts';

/** Subscriptions list keys (CONVENTIONS 3). */
export const subscriptionKeys = createQueryKeys('subscriptions');
