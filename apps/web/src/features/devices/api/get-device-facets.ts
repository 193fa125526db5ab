import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DeviceFacets } from '@app/contract/device-filters';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys } from './keys.ts';

/** The device list's facet values: countries, cities (within `country` when given) and app versions. */
async function getDeviceFacets(country: string | undefined, signal?: AbortSignal): Promise<DeviceFacets> {
  const response = await apiClient.get<DeviceFacets>(apiPaths.machineFacets, {
    query: { country },
    signal,
  });
  return response.data;
}

// Under the device lists' key, so adding or editing a machine refreshes the places offered.
export const useDeviceFacets = (country: string | undefined) =>
  useQuery({
    queryKey: deviceKeys.list({ facets: country ?? '' }),
    queryFn: ({ signal }) => getDeviceFacets(country, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
