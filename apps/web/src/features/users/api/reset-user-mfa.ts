import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserMfaStatus } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { userMfaQueryOptions } from './get-user-mfa.ts';

/**
 * POST users/{id}/mfa/reset: removes the user's authenticator and ends their sessions. It needs the
 * admin's step-up (decision 046): the API client asks for the password (and code) when it is due.
 */
export const resetUserMfa = (id: string) =>
  apiClient.post<UserMfaStatus>(apiPaths.userMfaReset(encodeURIComponent(id)));

export function useResetUserMfa(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resetUserMfa(id),
    onSuccess: (response) => queryClient.setQueryData(userMfaQueryOptions(id).queryKey, response.data),
  });
}
