import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { RoleList } from '@app/contract/roles';
import { apiClient } from '#web/lib/api-client.ts';
import { roleOptionKeys } from './keys.ts';

/** docs/product.md §7.3: the roles list called without parameters fills the role dropdown with every role. */
export async function getRoleOptions(signal?: AbortSignal) {
  const response = await apiClient.getList<RoleList>(apiPaths.rolesAll, { signal });
  return response.data?.roles ?? [];
}

export const roleOptionsQueryOptions = () =>
  queryOptions({
    queryKey: roleOptionKeys.list({ options: true }),
    queryFn: ({ signal }) => getRoleOptions(signal),
  });

export const useRoleOptions = (enabled = true) => useQuery({ ...roleOptionsQueryOptions(), enabled });
