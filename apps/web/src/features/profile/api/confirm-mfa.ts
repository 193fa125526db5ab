import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { profileKeys } from './keys.ts';

/** POST profile/mfa/confirm {code}: turns two-step sign-in on; answers the recovery codes, once. */
export const confirmMfa = async (code: string) =>
  (await apiClient.post<{ recoveryCodes: string[] }>(apiPaths.profileMfaConfirm, { code })).data
    .recoveryCodes;

export function useConfirmMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmMfa,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.detail('mfa') }),
  });
}
