import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Subscriptions list keys (docs/architecture.md §6, key factories). */
export const subscriptionKeys = createQueryKeys('subscriptions');
