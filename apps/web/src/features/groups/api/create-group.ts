import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { groupPaths, type CreateGroupBody, type Group } from '@app/contract/groups';
import { apiClient } from '#web/lib/api-client.ts';
import { groupKeys } from './keys.ts';

/** POST groups (groups.manage): a static group, or a dynamic one with its Device Management filter. */
export const createGroup = (body: CreateGroupBody) => apiClient.post<Group>(groupPaths.groups, body);

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Group>, Error, CreateGroupBody>({
    mutationFn: createGroup,
    onSuccess: async (response) => {
      queryClient.setQueryData(groupKeys.detail(response.data._id), response.data);
      await queryClient.invalidateQueries({ queryKey: groupKeys.lists() });
    },
  });
}
