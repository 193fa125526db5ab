import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import type { CreateSubscriptionBody, Subscription } from '@app/contract/subscriptions';
import { apiClient } from '#web/lib/api-client.ts';
import { subscriptionKeys } from './keys.ts';

/** POST subscrption/add: planType only when recurring, isRecurring a boolean (the schema's output). */
export const addSubscription = (body: CreateSubscriptionBody) =>
  apiClient.post<Subscription>(apiPaths.subscriptionAdd, body);

export function useAddSubscription() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Subscription>, Error, CreateSubscriptionBody>({
    mutationFn: addSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists() }),
  });
}
