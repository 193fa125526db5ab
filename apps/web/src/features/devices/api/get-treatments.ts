import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TreatmentList } from '@app/contract/treatments';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { treatmentKeys } from './keys.ts';

export type TreatmentListParams = {
  page: number;
  limit: number;
  machineNumber?: string;
  doctorId?: string;
  patientId?: string;
  search?: string;
  treatmentPlan?: string;
  treatmentDevice?: string;
  /** UTC days of the treatments' start, both included. */
  from?: string;
  to?: string;
};

export async function getTreatments(
  params: TreatmentListParams,
  signal?: AbortSignal,
): Promise<TreatmentList | null> {
  return (await apiClient.getList<TreatmentList>(apiPaths.treatmentsAll, { query: params, signal })).data;
}

export const treatmentsQueryOptions = (params: TreatmentListParams) =>
  queryOptions({
    queryKey: treatmentKeys.list(params),
    queryFn: ({ signal }) => getTreatments(params, signal),
    placeholderData: keepPreviousData,
  });

export const useTreatments = (params: TreatmentListParams, enabled = true) =>
  useQuery({ ...treatmentsQueryOptions(params), enabled });
