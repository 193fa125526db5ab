import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClinicUsers } from '@app/contract/clinic-users';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicUserKeys } from './keys.ts';

/** GET clinic/users: the manager's own clinic's users and waiting invitations. */
export async function getClinicUsers(signal?: AbortSignal): Promise<ClinicUsers> {
  const response = await apiClient.get<ClinicUsers>(clinicUserPaths.users, { signal });
  return response.data;
}

export const clinicUsersQueryOptions = () =>
  queryOptions({ queryKey: clinicUserKeys.list({}), queryFn: ({ signal }) => getClinicUsers(signal) });

export const useClinicUsers = () => useQuery(clinicUsersQueryOptions());
