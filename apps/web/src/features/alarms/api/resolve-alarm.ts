import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Alarm } from '@app/contract/alarms';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { alarmKeys } from './keys.ts';

export const resolveAlarm = (id: string) =>
  apiClient.post<Alarm>(apiPaths.alarmResolve(encodeURIComponent(id)));

/** The lists and the bell's count are read again (another admin may have acted meanwhile too). */
export function useResolveAlarm() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Alarm>, Error, string>({
    mutationFn: resolveAlarm,
    onSettled: () => queryClient.invalidateQueries({ queryKey: alarmKeys.all }),
  });
}
