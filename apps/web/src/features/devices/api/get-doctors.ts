import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DoctorList } from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { doctorKeys } from './keys.ts';

export type DoctorListParams = { page: number; limit: number; machineNumber?: string };

export async function getDoctors(params: DoctorListParams, signal?: AbortSignal): Promise<DoctorList | null> {
  return (await apiClient.getList<DoctorList>(apiPaths.doctorsAll, { query: params, signal })).data;
}

export const doctorsQueryOptions = (params: DoctorListParams) =>
  queryOptions({
    queryKey: doctorKeys.list(params),
    queryFn: ({ signal }) => getDoctors(params, signal),
    placeholderData: keepPreviousData,
  });

export const useDoctors = (params: DoctorListParams, enabled = true) =>
  useQuery({ ...doctorsQueryOptions(params), enabled });
