import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { BreakGlassList } from '@app/contract/break-glass';
import { breakGlassPaths, type BreakGlassState } from '@app/contract/break-glass-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { breakGlassKeys } from './keys.ts';

export type BreakGlassListParams = { page: number; limit: number; state: BreakGlassState };

export async function getBreakGlassList(
  params: BreakGlassListParams,
  signal?: AbortSignal,
): Promise<BreakGlassList | null> {
  const response = await apiClient.getList<BreakGlassList>(breakGlassPaths.list, { query: params, signal });
  return response.data;
}

export const breakGlassListQueryOptions = (params: BreakGlassListParams) =>
  queryOptions({
    queryKey: breakGlassKeys.list(params),
    queryFn: ({ signal }) => getBreakGlassList(params, signal),
    placeholderData: keepPreviousData,
  });

export const useBreakGlassList = (params: BreakGlassListParams) =>
  useQuery(breakGlassListQueryOptions(params));
