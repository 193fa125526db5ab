import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Doctor } from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { doctorKeys } from './keys.ts';

export async function getDoctor(id: string, signal?: AbortSignal): Promise<Doctor | null> {
  return (await apiClient.getList<Doctor>(apiPaths.doctor(encodeURIComponent(id)), { signal })).data;
}

export const doctorQueryOptions = (id: string) =>
  queryOptions({ queryKey: doctorKeys.detail(id), queryFn: ({ signal }) => getDoctor(id, signal) });

export const useDoctor = (id: string) => useQuery(doctorQueryOptions(id));
