import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { RoleList } from '@app/contract/roles';
import { apiClient } from '#web/lib/api-client.ts';
import { roleKeys } from './keys.ts';

/** docs/product.md §7.3: the roles list sends currentPage and pageSize. */
export type RoleListParams = { currentPage: number; pageSize: number };

export async function getRoles(params: RoleListParams, signal?: AbortSignal): Promise<RoleList | null> {
  const response = await apiClient.getList<RoleList>(apiPaths.rolesAll, { query: params, signal });
  return response.data;
}

export const rolesQueryOptions = (params: RoleListParams) =>
  queryOptions({
    queryKey: roleKeys.list(params),
    queryFn: ({ signal }) => getRoles(params, signal),
    placeholderData: keepPreviousData,
  });

/** `enabled` false until the kept page size is read (decision 053). */
export const useRoles = (params: RoleListParams, enabled = true) =>
  useQuery({ ...rolesQueryOptions(params), enabled });
