import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { Role } from '@app/contract/roles';
import { apiClient } from '#web/lib/api-client.ts';
import { roleKeys } from './keys.ts';

export async function getRole(id: string, signal?: AbortSignal): Promise<Role | null> {
  const response = await apiClient.getList<Role>(apiPaths.role(encodeURIComponent(id)), { signal });
  return response.data;
}

export const roleQueryOptions = (id: string) =>
  queryOptions({ queryKey: roleKeys.detail(id), queryFn: ({ signal }) => getRole(id, signal) });

export const useRole = (id: string) => useQuery(roleQueryOptions(id));
