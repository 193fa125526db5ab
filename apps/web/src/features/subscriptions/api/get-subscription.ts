import { queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionOperationPaths, type SubscriptionDetail } from '@app/contract/subscription-operations';
import { apiClient } from '#web/lib/api-client.ts';
import { subscriptionKeys } from './keys.ts';

/** GET subscriptions/{id}: the subscription page's data; a 400 reads as none (docs/product.md §7.4), a 404 throws. */
export async function getSubscription(id: string, signal?: AbortSignal): Promise<SubscriptionDetail | null> {
  const response = await apiClient.getList<SubscriptionDetail>(
    subscriptionOperationPaths.detail(encodeURIComponent(id)),
    { signal },
  );
  return response.data;
}

export const subscriptionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: subscriptionKeys.detail(id),
    queryFn: ({ signal }) => getSubscription(id, signal),
  });

/**
 * One subscription with its payments, timeline and the operations its state allows. `enabled`
 * false: not asked for yet (the list's row menu asks once the pointer or focus reaches it).
 */
export const useSubscription = (id: string, enabled = true) =>
  useQuery({ ...subscriptionQueryOptions(id), enabled });
