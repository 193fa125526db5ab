import { createQueryKeys } from '#web/lib/query-keys.ts';

/** Customers keys (docs/architecture.md §6, key factories); a customer's pieces sit under its detail. */
export const customerKeys = createQueryKeys('customers');
