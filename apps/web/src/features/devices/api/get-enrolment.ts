import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EnrolmentStatus } from '@app/contract/device-enrolment';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { enrolmentKeys } from './keys.ts';

/** GET machine/{id}/enrolment: whether the machine's app holds a live credential, and since when. */
export async function getEnrolment(id: string, signal?: AbortSignal): Promise<EnrolmentStatus> {
  const response = await apiClient.get<EnrolmentStatus>(apiPaths.machineEnrolment(encodeURIComponent(id)), {
    signal,
  });
  return response.data;
}

export const enrolmentQueryOptions = (id: string) =>
  queryOptions({ queryKey: enrolmentKeys.detail(id), queryFn: ({ signal }) => getEnrolment(id, signal) });

export const useEnrolment = (id: string) => useQuery(enrolmentQueryOptions(id));
