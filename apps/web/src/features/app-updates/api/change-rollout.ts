import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RolloutChangeBody } from '@app/contract/app-update-rollouts';
import type { AppUpdate } from '@app/contract/app-updates';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { appUpdateKeys } from './keys.ts';

export type RolloutChange = { id: string; body: RolloutChangeBody };

/** POST system/updates/{id}/rollout (decision 051); the API client asks for a step-up when needed. */
export const changeRollout = ({ id, body }: RolloutChange) =>
  apiClient.post<AppUpdate>(apiPaths.appUpdateRollout(encodeURIComponent(id)), body);

/** The list is read again whatever the answer: another admin may have acted meanwhile. */
export function useChangeRollout() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<AppUpdate>, Error, RolloutChange>({
    mutationFn: changeRollout,
    onSettled: () => queryClient.invalidateQueries({ queryKey: appUpdateKeys.lists() }),
  });
}
