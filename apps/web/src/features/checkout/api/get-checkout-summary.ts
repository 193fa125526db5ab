import { useEffect, useState } from 'react';
import { apiPaths } from '@app/contract/paths';
import type { CheckoutSummary } from '@app/contract/subscriptions';
import { apiClient } from '#web/lib/api-client.ts';

/** GET subscrption/detail/{id}: public, no token needed (docs/product.md §2.13). */
export async function getCheckoutSummary(id: string, signal?: AbortSignal): Promise<CheckoutSummary> {
  const response = await apiClient.get<CheckoutSummary>(apiPaths.subscriptionDetail(encodeURIComponent(id)), {
    signal,
  });
  return response.data;
}

export type CheckoutSummaryState = { data?: CheckoutSummary; error?: unknown };

/**
 * The summary of /plans/{id}, fetched once per page. A plain effect rather than TanStack Query: the
 * customer's page has one request and no cache to share, and the query library would be a quarter of
 * its JavaScript (docs/decisions/028). docs/product.md §8: its error is only shown by the page, never toasted.
 */
export function useCheckoutSummary(id: string | undefined): CheckoutSummaryState {
  const [state, setState] = useState<CheckoutSummaryState & { id?: string }>({});
  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    getCheckoutSummary(id, controller.signal).then(
      (data) => setState({ id, data }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ id, error });
      },
    );
    return () => controller.abort();
  }, [id]);
  return state.id === id ? state : {};
}
