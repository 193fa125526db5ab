import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MfaResetBody, UserMfaStatus } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { userMfaQueryOptions } from './get-user-mfa.ts';

/** POST users/{id}/mfa/reset {password, code?}: removes the user's authenticator and ends their sessions. */
export const resetUserMfa = (id: string, body: MfaResetBody) =>
  apiClient.post<UserMfaStatus>(apiPaths.userMfaReset(encodeURIComponent(id)), body);

export function useResetUserMfa(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MfaResetBody) => resetUserMfa(id, body),
    onSuccess: (response) => queryClient.setQueryData(userMfaQueryOptions(id).queryKey, response.data),
  });
}
