import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { commandBatchPaths, type CommandBatch } from '@app/contract/command-batches';
import type { SendCommandBody } from '@app/contract/commands';
import { groupPaths, type GroupList } from '@app/contract/groups';
import { apiClient } from '#web/lib/api-client.ts';
import type { DeviceBulkSelection } from './bulk-device-status.ts';
import { commandKeys, deviceKeys } from './keys.ts';

/*
 * Device Management's bulk operations beyond status (issue 37): one command to the machines picked
 * (or all matching the list's filters), and adding them to a static group. The server asks for a
 * step-up (the API client prompts) and, with ROLLOUT_SECOND_ADMIN on, a second admin's approval.
 */

/** POST commands: one command to several machines; its answer says queued or awaiting approval. */
export function useSendCommandBatch(selection: DeviceBulkSelection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SendCommandBody) =>
      apiClient.post<CommandBatch>(commandBatchPaths.send, { ...body, target: selection }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: commandKeys.all }),
  });
}

/** The static groups machines can be added to (a dynamic group takes what its filter matches). */
export const useStaticGroups = (enabled: boolean) =>
  useQuery({
    queryKey: ['groups', 'static-for-bulk'],
    enabled,
    queryFn: async ({ signal }) => {
      const res = await apiClient.get<GroupList>(`${groupPaths.groups}?limit=100`, { signal });
      return res.data.groups.filter((g) => g.kind === 'static');
    },
  });

/** POST groups/{id}/members with the selection: answered with how many machines it added. */
export function useAddToGroup(selection: DeviceBulkSelection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (groupId: string) =>
      apiClient.post<{ changed: number; machineCount: number }>(
        groupPaths.members(encodeURIComponent(groupId)),
        selection,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}
