import { subscriptionOperationPaths } from '@app/contract/subscription-operations';
import { apiClient } from '#web/lib/api-client.ts';

/**
 * GET subscriptions/{id}/payments/{paymentId}/receipt: the receipt's address, for a payment whose
 * receipt was not known when it was recorded (the provider is asked now).
 */
export async function getReceiptUrl(id: string, paymentId: string): Promise<string> {
  const response = await apiClient.get<{ url: string }>(
    subscriptionOperationPaths.receipt(encodeURIComponent(id), encodeURIComponent(paymentId)),
  );
  return response.data.url;
}
