import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceList } from '@app/contract/devices';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { machineOptionKeys } from './keys.ts';

export const MACHINE_OPTIONS_LIMIT = 10;

/** GET machine with a search: the machines the picker offers (the devices feature's own list is not ours to import). */
export async function searchMachines(search: string, signal?: AbortSignal): Promise<DeviceList | null> {
  const response = await apiClient.getList<DeviceList>(apiPaths.machines, {
    query: {
      page: 1,
      limit: MACHINE_OPTIONS_LIMIT,
      search: search || undefined,
      sort: 'machineNumber',
      direction: 'asc',
    },
    signal,
  });
  return response.data;
}

export const machineOptionsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: machineOptionKeys.list({ picker: true, search }),
    queryFn: ({ signal }) => searchMachines(search, signal),
    placeholderData: keepPreviousData,
  });

export const useMachineOptions = (search: string, enabled: boolean) =>
  useQuery({ ...machineOptionsQueryOptions(search), enabled });
