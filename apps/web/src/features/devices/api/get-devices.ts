import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceFilterQuery } from '@app/contract/device-filters';
import type { DeviceList, DeviceSortKey, SortDirection } from '@app/contract/devices';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys } from './keys.ts';

export type DeviceListParams = DeviceFilterQuery & {
  page: number;
  limit: number;
  sort?: DeviceSortKey;
  direction?: SortDirection;
};

/** GET machine: a 400 reads as an empty list (docs/product.md §7.4). */
export async function getDevices(params: DeviceListParams, signal?: AbortSignal): Promise<DeviceList | null> {
  const response = await apiClient.getList<DeviceList>(apiPaths.machines, { query: params, signal });
  return response.data;
}

export const devicesQueryOptions = (params: DeviceListParams) =>
  queryOptions({
    queryKey: deviceKeys.list(params),
    queryFn: ({ signal }) => getDevices(params, signal),
    // The old page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/** `enabled` false: not asked for yet (the kept page size not read, or the map shown instead). */
export const useDevices = (params: DeviceListParams, enabled = true) =>
  useQuery({ ...devicesQueryOptions(params), enabled });
