import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { groupPaths, type Group } from '@app/contract/groups';
import { apiClient } from '#web/lib/api-client.ts';
import { groupKeys } from './keys.ts';

type Rename = { id: string; name: string };

/** PUT groups/{id} (groups.manage) with the name alone: a dynamic group keeps its filter. */
export const renameGroup = ({ id, name }: Rename) =>
  apiClient.put<Group>(groupPaths.group(encodeURIComponent(id)), { name });

export function useRenameGroup() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Group>, Error, Rename>({
    mutationFn: renameGroup,
    onSuccess: async (response) => {
      queryClient.setQueryData(groupKeys.detail(response.data._id), response.data);
      await queryClient.invalidateQueries({ queryKey: groupKeys.lists() });
    },
  });
}
