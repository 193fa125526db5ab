import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MfaDisableBody, MfaStatus } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { profileKeys } from './keys.ts';

/** POST profile/mfa/disable {password, code}: turns two-step sign-in off. */
export const disableMfa = async (body: MfaDisableBody) =>
  (await apiClient.post<MfaStatus>(apiPaths.profileMfaDisable, body)).data;

export function useDisableMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableMfa,
    onSuccess: (status) => queryClient.setQueryData(profileKeys.detail('mfa'), status),
  });
}
