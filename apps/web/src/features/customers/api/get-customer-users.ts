import { useQuery } from '@tanstack/react-query';
import type { ClinicUsers } from '@app/contract/clinic-users';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { customerKeys } from './keys.ts';

/** GET customers/{id}/users (issue 39 item 3): the clinic's users and the invitations still waiting. */
export const useCustomerUsers = (id: string) =>
  useQuery({
    queryKey: [...customerKeys.detail(id), 'users'],
    queryFn: async ({ signal }) =>
      (await apiClient.get<ClinicUsers>(clinicUserPaths.adminUsers(encodeURIComponent(id)), { signal })).data,
    meta: { silentError: true },
  });
