import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceAppVersionList } from '@app/contract/devices';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { appVersionKeys } from './keys.ts';

export type DeviceAppVersionsParams = { deviceId: string; page: number; limit: number };

/** GET machine/{id}/app-versions: the versions the machine's heartbeats reported, newest first. */
export async function getDeviceAppVersions(
  { deviceId, page, limit }: DeviceAppVersionsParams,
  signal?: AbortSignal,
): Promise<DeviceAppVersionList | null> {
  const response = await apiClient.getList<DeviceAppVersionList>(
    apiPaths.machineAppVersions(encodeURIComponent(deviceId)),
    { query: { page, limit }, signal },
  );
  return response.data;
}

export const deviceAppVersionsQueryOptions = (params: DeviceAppVersionsParams) =>
  queryOptions({
    queryKey: appVersionKeys.list(params),
    queryFn: ({ signal }) => getDeviceAppVersions(params, signal),
    placeholderData: keepPreviousData,
  });

export const useDeviceAppVersions = (params: DeviceAppVersionsParams) =>
  useQuery(deviceAppVersionsQueryOptions(params));
