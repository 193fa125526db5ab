import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PatientList } from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { patientKeys } from './keys.ts';

export type PatientListParams = { page: number; limit: number; machineNumber?: string; doctorId?: string };

export async function getPatients(
  params: PatientListParams,
  signal?: AbortSignal,
): Promise<PatientList | null> {
  return (await apiClient.getList<PatientList>(apiPaths.patientsAll, { query: params, signal })).data;
}

export const patientsQueryOptions = (params: PatientListParams) =>
  queryOptions({
    queryKey: patientKeys.list(params),
    queryFn: ({ signal }) => getPatients(params, signal),
    placeholderData: keepPreviousData,
  });

export const usePatients = (params: PatientListParams, enabled = true) =>
  useQuery({ ...patientsQueryOptions(params), enabled });
