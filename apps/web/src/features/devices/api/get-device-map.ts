import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceMap, DeviceMapQuery } from '@app/contract/device-map';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys } from './keys.ts';

/** The fleet map's points for the list's filters and the view (decision 052). */
export async function getDeviceMap(params: DeviceMapQuery, signal?: AbortSignal): Promise<DeviceMap> {
  const response = await apiClient.get<DeviceMap>(apiPaths.machineMap, {
    query: params as Record<string, string | number | undefined>,
    signal,
  });
  return response.data;
}

// Under the device lists' key, so a device edit refreshes the map as it does the list.
export const deviceMapQueryOptions = (params: DeviceMapQuery) =>
  queryOptions({
    queryKey: deviceKeys.list({ map: params }),
    queryFn: ({ signal }) => getDeviceMap(params, signal),
    // The points stay on screen while the next view's load.
    placeholderData: keepPreviousData,
  });

export const useDeviceMap = (params: DeviceMapQuery, enabled = true) =>
  useQuery({ ...deviceMapQueryOptions(params), enabled });
