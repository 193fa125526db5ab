import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import {
  subscriptionOperationPaths,
  type CancelBody,
  type ExtendBody,
  type GraceBody,
  type SubscriptionOperationName,
} from '@app/contract/subscription-operations';
import { apiClient } from '#web/lib/api-client.ts';
import { subscriptionKeys } from './keys.ts';

/** Each operation with the body it takes (the contract's; none for the ones that take none). */
export type OperationRequest =
  | { name: 'resend' | 'resume' | 'retry' | 'cardUpdate' }
  | { name: 'revoke'; body: { reason?: string } }
  | { name: 'extend'; body: ExtendBody }
  | { name: 'grace'; body: GraceBody }
  | { name: 'cancel'; body: CancelBody };

/*
 * POST subscriptions/{id}/{operation}: the eight operations of one subscription share one shape (an
 * id, an optional body, an envelope whose msg says what happened) and one effect on the cache, so
 * they share this file rather than eight copies of it. Extending may answer "Confirm your password"
 * first: the API client asks and sends it again (decision 046).
 */
export const runSubscriptionOperation = (id: string, request: OperationRequest) =>
  apiClient.post<unknown>(
    subscriptionOperationPaths[request.name satisfies SubscriptionOperationName](encodeURIComponent(id)),
    'body' in request ? request.body : undefined,
  );

/** Runs one operation on subscription `id`; the list and the subscription's page are read again. */
export function useSubscriptionOperation(id: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<unknown>, Error, OperationRequest>({
    mutationFn: (request) => runSubscriptionOperation(id, request),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.detail(id) }),
      ]),
  });
}
