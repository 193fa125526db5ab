import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '@app/contract/devices';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys } from './keys.ts';

export async function getDevice(id: string, signal?: AbortSignal): Promise<Device | null> {
  const response = await apiClient.getList<Device>(apiPaths.machine(encodeURIComponent(id)), { signal });
  return response.data;
}

export const deviceQueryOptions = (id: string) =>
  queryOptions({ queryKey: deviceKeys.detail(id), queryFn: ({ signal }) => getDevice(id, signal) });

export const useDevice = (id: string) => useQuery(deviceQueryOptions(id));
