import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { outboxPaths, type OutboxMessageDetail } from '@app/contract/outbox';
import { apiClient } from '#web/lib/api-client.ts';
import { outboxKeys } from './keys.ts';

export const resendMail = (id: string) =>
  apiClient.post<OutboxMessageDetail>(outboxPaths.resend(encodeURIComponent(id)));

/** The list is read again: the message's tries start afresh. */
export function useResendMail() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<OutboxMessageDetail>, Error, string>({
    mutationFn: resendMail,
    onSettled: () => queryClient.invalidateQueries({ queryKey: outboxKeys.all }),
  });
}
