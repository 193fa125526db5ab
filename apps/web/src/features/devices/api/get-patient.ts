import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Patient } from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { patientKeys } from './keys.ts';

export async function getPatient(id: string, signal?: AbortSignal): Promise<Patient | null> {
  return (await apiClient.getList<Patient>(apiPaths.patient(encodeURIComponent(id)), { signal })).data;
}

export const patientQueryOptions = (id: string) =>
  queryOptions({ queryKey: patientKeys.detail(id), queryFn: ({ signal }) => getPatient(id, signal) });

export const usePatient = (id: string) => useQuery(patientQueryOptions(id));
