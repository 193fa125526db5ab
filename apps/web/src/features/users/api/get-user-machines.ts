import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { assignedMachineSchema } from '@app/contract/device-enrolment';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { userMachineKeys } from './keys.ts';

export type AssignedMachine = z.infer<typeof assignedMachineSchema>;

/** GET users/{id}/machines: the machines a technician is assigned to. */
export async function getUserMachines(id: string, signal?: AbortSignal): Promise<AssignedMachine[]> {
  const response = await apiClient.get<{ machines: AssignedMachine[] }>(
    apiPaths.userMachines(encodeURIComponent(id)),
    { signal },
  );
  return response.data?.machines ?? [];
}

export const userMachinesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: userMachineKeys.detail(id),
    queryFn: ({ signal }) => getUserMachines(id, signal),
  });

export const useUserMachines = (id: string) => useQuery(userMachinesQueryOptions(id));
