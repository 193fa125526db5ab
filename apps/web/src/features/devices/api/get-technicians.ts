import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TechnicianList } from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { technicianKeys } from './keys.ts';

export type TechnicianListParams = { page: number; limit: number; machineNumber?: string };

export async function getTechnicians(
  params: TechnicianListParams,
  signal?: AbortSignal,
): Promise<TechnicianList | null> {
  return (await apiClient.getList<TechnicianList>(apiPaths.techniciansAll, { query: params, signal })).data;
}

export const techniciansQueryOptions = (params: TechnicianListParams) =>
  queryOptions({
    queryKey: technicianKeys.list(params),
    queryFn: ({ signal }) => getTechnicians(params, signal),
    placeholderData: keepPreviousData,
  });

export const useTechnicians = (params: TechnicianListParams, enabled = true) =>
  useQuery({ ...techniciansQueryOptions(params), enabled });
