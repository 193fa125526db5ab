import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { userKeys } from './keys.ts';

export const deleteUser = (id: string) => apiClient.delete<null>(apiPaths.user(encodeURIComponent(id)));

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<null>, Error, string>({
    mutationFn: deleteUser,
    onSuccess: async (_response, id) => {
      queryClient.removeQueries({ queryKey: userKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: userKeys.lists() });
    },
  });
}
