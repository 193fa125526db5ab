import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import type { Role, RoleBody } from '@app/contract/roles';
import { apiClient } from '#web/lib/api-client.ts';
import { roleKeys } from './keys.ts';

/** POST roles (create) or PUT roles/{id} (update) with {roleName, type}. */
export const saveRole = ({ id, body }: { id?: string; body: RoleBody }) =>
  id
    ? apiClient.put<Role>(apiPaths.role(encodeURIComponent(id)), body)
    : apiClient.post<Role>(apiPaths.roles, body);

export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Role>, Error, { id?: string; body: RoleBody }>({
    mutationFn: saveRole,
    onSuccess: async (response) => {
      queryClient.setQueryData(roleKeys.detail(response.data._id), response.data);
      await queryClient.invalidateQueries({ queryKey: roleKeys.lists() });
    },
  });
}
