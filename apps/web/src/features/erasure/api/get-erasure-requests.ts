import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ErasureList } from '@app/contract/erasure';
import { erasurePaths, type ErasureState } from '@app/contract/erasure-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { erasureKeys } from './keys.ts';

export type ErasureListParams = { page: number; limit: number; state: ErasureState };

export async function getErasureRequests(
  params: ErasureListParams,
  signal?: AbortSignal,
): Promise<ErasureList | null> {
  const response = await apiClient.getList<ErasureList>(erasurePaths.list, { query: params, signal });
  return response.data;
}

export const useErasureRequests = (params: ErasureListParams) =>
  useQuery(
    queryOptions({
      queryKey: erasureKeys.list(params),
      queryFn: ({ signal }) => getErasureRequests(params, signal),
      placeholderData: keepPreviousData,
    }),
  );
