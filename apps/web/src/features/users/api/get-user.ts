import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { User } from '@app/contract/users';
import { apiClient } from '#web/lib/api-client.ts';
import { userKeys } from './keys.ts';

export async function getUser(id: string, signal?: AbortSignal): Promise<User | null> {
  const response = await apiClient.getList<User>(apiPaths.user(encodeURIComponent(id)), { signal });
  return response.data;
}

export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => getUser(id, signal) });

export const useUser = (id: string) => useQuery(userQueryOptions(id));
