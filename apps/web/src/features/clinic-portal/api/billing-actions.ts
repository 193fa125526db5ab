import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clinicPortalApiPaths } from '@app/contract/clinic-portal-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicPortalKeys } from './keys.ts';

/** GET a payment's receipt address (Stripe's hosted page, or the demo provider's own). */
export async function getReceiptUrl(subscriptionId: string, paymentId: string): Promise<string> {
  const response = await apiClient.get<{ url: string }>(
    clinicPortalApiPaths.receipt(subscriptionId, paymentId),
  );
  return response.data.url;
}

/** POST card-update: the provider's page where the clinic changes the plan's card; null: the demo's form. */
export async function getCardUpdateUrl(subscriptionId: string): Promise<string | null> {
  const response = await apiClient.post<{ url: string | null }>(
    clinicPortalApiPaths.cardUpdate(subscriptionId),
  );
  return response.data.url;
}

/** POST retry: pays a failed renewal now; the list is read again whatever the outcome. */
export function useRetryPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      apiClient.post<{ paid: boolean }>(clinicPortalApiPaths.retry(subscriptionId)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: clinicPortalKeys.lists() }),
  });
}
