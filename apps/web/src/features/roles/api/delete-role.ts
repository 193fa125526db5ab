import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { roleKeys } from './keys.ts';

export const deleteRole = (id: string) => apiClient.delete<null>(apiPaths.role(encodeURIComponent(id)));

/** docs/product.md §8: the response msg is the success toast and the list is refreshed. */
export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<null>, Error, string>({
    mutationFn: deleteRole,
    onSuccess: async (_response, id) => {
      queryClient.removeQueries({ queryKey: roleKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: roleKeys.lists() });
    },
  });
}
