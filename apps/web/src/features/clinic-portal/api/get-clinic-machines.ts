import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ClinicMachineList } from '@app/contract/clinic-portal';
import { clinicPortalApiPaths, type ClinicMachineSortKey } from '@app/contract/clinic-portal-texts';
import type { SortDirection } from '@app/contract/devices';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicPortalKeys } from './keys.ts';

export type ClinicMachineListParams = {
  page: number;
  limit: number;
  sort?: ClinicMachineSortKey;
  direction?: SortDirection;
  search?: string;
};

/** GET clinic/machines: the clinic's machines now; a 400 reads as an empty list. */
export async function getClinicMachines(params: ClinicMachineListParams, signal?: AbortSignal) {
  const response = await apiClient.getList<ClinicMachineList>(clinicPortalApiPaths.machines, {
    query: params,
    signal,
  });
  return response.data;
}

export const clinicMachinesQueryOptions = (params: ClinicMachineListParams) =>
  queryOptions({
    queryKey: clinicPortalKeys.list({ machines: params }),
    queryFn: ({ signal }) => getClinicMachines(params, signal),
    placeholderData: keepPreviousData,
  });

export const useClinicMachines = (params: ClinicMachineListParams) =>
  useQuery(clinicMachinesQueryOptions(params));
