import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TreatmentDetail } from '@app/contract/treatments';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { treatmentKeys } from './keys.ts';

export async function getTreatment(id: string, signal?: AbortSignal): Promise<TreatmentDetail | null> {
  return (await apiClient.getList<TreatmentDetail>(apiPaths.treatment(encodeURIComponent(id)), { signal }))
    .data;
}

export const treatmentQueryOptions = (id: string) =>
  queryOptions({ queryKey: treatmentKeys.detail(id), queryFn: ({ signal }) => getTreatment(id, signal) });

export const useTreatment = (id: string | null) =>
  useQuery({ ...treatmentQueryOptions(id ?? ''), enabled: id !== null });
