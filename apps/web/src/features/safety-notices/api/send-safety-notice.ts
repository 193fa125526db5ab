import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import type { SafetyNotice, SendSafetyNoticeBody } from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { safetyNoticeKeys } from './keys.ts';

type Send = { id: string; body: SendSafetyNoticeBody };

export const sendSafetyNotice = ({ id, body }: Send) =>
  apiClient.post<SafetyNotice>(safetyNoticePaths.send(encodeURIComponent(id)), body);

/** Sent: the list, the notice, its preview and its status are read again. */
export function useSendSafetyNotice() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<SafetyNotice>, Error, Send>({
    mutationFn: sendSafetyNotice,
    onSettled: () => queryClient.invalidateQueries({ queryKey: safetyNoticeKeys.all }),
  });
}
