import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlarmDigest } from '@app/contract/alarms';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { profileKeys } from './keys.ts';

export const setAlarmDigest = (enabled: boolean) =>
  apiClient.put<AlarmDigest>(apiPaths.profileAlarmDigest, { enabled });

export function useSetAlarmDigest() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<AlarmDigest>, Error, boolean>({
    mutationFn: setAlarmDigest,
    onSuccess: (response) => queryClient.setQueryData(profileKeys.detail('alarm-digest'), response.data),
  });
}
