import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { groupPaths } from '@app/contract/groups';
import { apiClient } from '#web/lib/api-client.ts';
import { groupKeys } from './keys.ts';

/** DELETE groups/{id} (groups.manage): the group goes, its machines stay as they are. */
export const deleteGroup = (id: string) => apiClient.delete<null>(groupPaths.group(encodeURIComponent(id)));

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<null>, Error, string>({
    mutationFn: deleteGroup,
    onSuccess: async (_response, id) => {
      queryClient.removeQueries({ queryKey: groupKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: groupKeys.lists() });
    },
  });
}
