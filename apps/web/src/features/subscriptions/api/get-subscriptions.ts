import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { Subscription, SubscriptionStatus } from '@app/contract/subscriptions';
import { apiClient } from '#web/lib/api-client.ts';
import { subscriptionKeys } from './keys.ts';

export type SubscriptionListParams = {
  page: number;
  limit: number;
  status?: SubscriptionStatus;
  expiresWithin?: number;
  /** The customer's name or email, or the machine's serial number (issue 35 item 7). */
  search?: string;
};
export type SubscriptionList = {
  subscriptions: Subscription[];
  total_pages: number;
  total: number;
  page: number;
  limit: number;
};

/** GET subscrption/all: a 400 reads as an empty list (docs/product.md §7.4). */
export async function getSubscriptions(
  params: SubscriptionListParams,
  signal?: AbortSignal,
): Promise<SubscriptionList | null> {
  const response = await apiClient.getList<SubscriptionList>(apiPaths.subscriptionsAll, {
    query: params,
    signal,
  });
  return response.data;
}

export const subscriptionsQueryOptions = (params: SubscriptionListParams) =>
  queryOptions({
    queryKey: subscriptionKeys.list(params),
    queryFn: ({ signal }) => getSubscriptions(params, signal),
    placeholderData: keepPreviousData,
  });

/** `enabled` false: not asked for yet (the kept page size not read). */
export const useSubscriptions = (params: SubscriptionListParams, enabled = true) =>
  useQuery({ ...subscriptionsQueryOptions(params), enabled });
