import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { CheckoutSummary } from '@app/contract/subscriptions';
import { apiClient } from '../../../lib/api-client.ts';
import { checkoutKeys } from './keys.ts';

/** GET subscrption/detail/{id}: public, no token needed (SPEC 7 "Checkout summary by id"). */
export async function getCheckoutSummary(id: string, signal?: AbortSignal): Promise<CheckoutSummary> {
  const response = await apiClient.get<CheckoutSummary>(apiPaths.subscriptionDetail(encodeURIComponent(id)), {
    signal,
  });
  return response.data;
}

export const checkoutSummaryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: checkoutKeys.detail(id),
    queryFn: ({ signal }) => getCheckoutSummary(id, signal),
    // SPEC 8: a checkout summary error is only logged; the page says what it means, no toast.
    meta: { silentError: true },
  });

export const useCheckoutSummary = (id: string | undefined) =>
  useQuery({ ...checkoutSummaryQueryOptions(id ?? ''), enabled: Boolean(id) });
