import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AppUpdateList } from '@app/contract/app-updates';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { appUpdateKeys } from './keys.ts';

export type AppUpdateListParams = { page: number; limit: number };

/** GET system/updates/all: a 400 reads as an empty list (docs/product.md §7.4). */
export async function getAppUpdates(
  params: AppUpdateListParams,
  signal?: AbortSignal,
): Promise<AppUpdateList | null> {
  const response = await apiClient.getList<AppUpdateList>(apiPaths.systemUpdatesAll, {
    query: params,
    signal,
  });
  return response.data;
}

export const appUpdatesQueryOptions = (params: AppUpdateListParams) =>
  queryOptions({
    queryKey: appUpdateKeys.list(params),
    queryFn: ({ signal }) => getAppUpdates(params, signal),
    placeholderData: keepPreviousData,
  });

/** `enabled` false until the kept page size is read (decision 053). */
export const useAppUpdates = (params: AppUpdateListParams, enabled = true) =>
  useQuery({ ...appUpdatesQueryOptions(params), enabled });
