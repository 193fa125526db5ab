import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { TreatmentFacets, TreatmentFacetsQuery } from '@app/contract/treatments';
import { apiClient } from '#web/lib/api-client.ts';
import { treatmentKeys } from './keys.ts';

/** Treatment Records' facet values (plans, treatment devices) under the list's other filters. */
async function getTreatmentFacets(query: TreatmentFacetsQuery, signal?: AbortSignal) {
  return (await apiClient.get<TreatmentFacets>(apiPaths.treatmentsFacets, { query, signal })).data;
}

// Under the treatments' key, so new records synced in refresh the counts with the list.
export const useTreatmentFacets = (query: TreatmentFacetsQuery) =>
  useQuery({
    queryKey: treatmentKeys.list({ facets: query }),
    queryFn: ({ signal }) => getTreatmentFacets(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
