import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { PaymentProviderName } from '@app/contract/subscriptions';
import { apiClient } from '../../../lib/api-client.ts';
import { checkoutKeys } from './keys.ts';

export type PaymentIntent = { clientSecret: string; provider: PaymentProviderName };

/** POST subscription/checkout {subcriptionId} → {clientSecret}; the amount is the server's, never the browser's. */
export async function createPaymentIntent(subscriptionId: string): Promise<PaymentIntent> {
  const response = await apiClient.post<PaymentIntent>(apiPaths.checkout, { subcriptionId: subscriptionId });
  return response.data;
}

/**
 * Made when the payment step opens, again each time it reopens (the server hands back the same open
 * intent), and never kept: a stale secret must not be reused after a payment.
 */
export const paymentIntentQueryOptions = (subscriptionId: string) =>
  queryOptions({
    queryKey: [...checkoutKeys.detail(subscriptionId), 'intent'] as const,
    queryFn: () => createPaymentIntent(subscriptionId),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    // The payment step shows the error itself.
    meta: { silentError: true },
  });

export const usePaymentIntent = (subscriptionId: string) =>
  useQuery(paymentIntentQueryOptions(subscriptionId));
