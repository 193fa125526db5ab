import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { groupPaths, type GroupList } from '@app/contract/groups';
import { apiClient } from '#web/lib/api-client.ts';
import { groupKeys } from './keys.ts';

export type GroupListParams = { page: number; limit: number; search?: string | undefined };

/** GET groups: a page of groups by name, each with its machines counted now. */
export async function getGroups(params: GroupListParams, signal?: AbortSignal): Promise<GroupList> {
  return (await apiClient.get<GroupList>(groupPaths.groups, { query: params, signal })).data;
}

export const groupsQueryOptions = (params: GroupListParams) =>
  queryOptions({
    queryKey: groupKeys.list(params),
    queryFn: ({ signal }) => getGroups(params, signal),
    placeholderData: keepPreviousData,
    // The page shows a failed load itself, with Try again.
    meta: { silentError: true },
  });

export const useGroups = (params: GroupListParams) => useQuery(groupsQueryOptions(params));
