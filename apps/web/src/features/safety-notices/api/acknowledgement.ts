import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Acknowledgement } from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { apiClient } from '#web/lib/api-client.ts';

/** The public page's own key: it holds no admin data and no session. */
const ackKey = (token: string) => ['safety-notice-ack', token] as const;

export const useAcknowledgement = (token: string) =>
  useQuery({
    queryKey: ackKey(token),
    queryFn: async ({ signal }) =>
      (
        await apiClient.getList<Acknowledgement>(
          safetyNoticePaths.acknowledgement(encodeURIComponent(token)),
          {
            signal,
            anonymous: true,
          },
        )
      ).data,
    retry: false,
  });

export function useAcknowledge(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiClient.post<Acknowledgement>(
        safetyNoticePaths.acknowledgement(encodeURIComponent(token)),
        { name },
        { anonymous: true },
      ),
    onSuccess: (answer) => queryClient.setQueryData(ackKey(token), answer.data),
  });
}
