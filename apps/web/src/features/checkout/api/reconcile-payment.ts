import { apiPaths } from '@app/contract/paths';
import type { CheckoutSummary } from '@app/contract/subscriptions';
import { apiClient } from '#web/lib/api-client.ts';

/** POST subscription/reconcile: the server asks the provider, so the status never waits on a webhook. */
export const reconcilePayment = async (subscriptionId: string) =>
  (await apiClient.post<CheckoutSummary>(apiPaths.subscriptionReconcile, { subcriptionId: subscriptionId }))
    .data;
