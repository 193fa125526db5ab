import { createQueryKeys } from '../../../lib/query-keys.ts';

/** The public checkout's keys: detail(id) is the summary; [...detail(id), 'intent'] the payment intent. */
export const checkoutKeys = createQueryKeys('checkout');
