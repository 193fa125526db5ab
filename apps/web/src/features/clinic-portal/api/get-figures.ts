import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Figures } from '@app/contract/clinic-portal';
import { clinicPortalApiPaths } from '@app/contract/clinic-portal-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicPortalKeys } from './keys.ts';

export type FiguresParams = { from?: string; to?: string };

/** GET clinic/figures: the clinic's treatments per machine, doctor, week and month over a range. */
export async function getFigures(params: FiguresParams, signal?: AbortSignal): Promise<Figures> {
  const response = await apiClient.get<Figures>(clinicPortalApiPaths.figures, { query: params, signal });
  return response.data;
}

export const figuresQueryOptions = (params: FiguresParams) =>
  queryOptions({
    queryKey: clinicPortalKeys.list({ figures: params }),
    queryFn: ({ signal }) => getFigures(params, signal),
    placeholderData: keepPreviousData,
  });

export const useFigures = (params: FiguresParams) => useQuery(figuresQueryOptions(params));
