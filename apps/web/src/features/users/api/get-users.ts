import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { UserList } from '@app/contract/users';
import { apiClient } from '#web/lib/api-client.ts';
import { userKeys } from './keys.ts';

export type UserListParams = { page: number; limit: number; search?: string };

/** GET users/all: a 400 reads as an empty list (docs/product.md §7.4). */
export async function getUsers(params: UserListParams, signal?: AbortSignal): Promise<UserList | null> {
  const response = await apiClient.getList<UserList>(apiPaths.usersAll, { query: params, signal });
  return response.data;
}

export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
  });

/** `enabled` false until the kept page size is read (decision 053). */
export const useUsers = (params: UserListParams, enabled = true) =>
  useQuery({ ...usersQueryOptions(params), enabled });
