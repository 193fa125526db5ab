import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Technician } from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { technicianKeys } from './keys.ts';

export async function getTechnician(id: string, signal?: AbortSignal): Promise<Technician | null> {
  return (await apiClient.getList<Technician>(apiPaths.technician(encodeURIComponent(id)), { signal })).data;
}

export const technicianQueryOptions = (id: string) =>
  queryOptions({ queryKey: technicianKeys.detail(id), queryFn: ({ signal }) => getTechnician(id, signal) });

export const useTechnician = (id: string) => useQuery(technicianQueryOptions(id));
