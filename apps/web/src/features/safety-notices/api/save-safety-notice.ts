import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import type { SafetyNotice, SafetyNoticeBody } from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { safetyNoticeKeys } from './keys.ts';

type Save = { id?: string | undefined; body: SafetyNoticeBody };

/** A new draft (no id) or a change to one. */
export const saveSafetyNotice = ({ id, body }: Save) =>
  id
    ? apiClient.put<SafetyNotice>(safetyNoticePaths.notice(encodeURIComponent(id)), body)
    : apiClient.post<SafetyNotice>(safetyNoticePaths.list, body);

export function useSaveSafetyNotice() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<SafetyNotice>, Error, Save>({
    mutationFn: saveSafetyNotice,
    onSuccess: (_answer, { id }) => {
      void queryClient.invalidateQueries({ queryKey: safetyNoticeKeys.lists() });
      if (id) void queryClient.invalidateQueries({ queryKey: safetyNoticeKeys.detail(id) });
    },
  });
}
