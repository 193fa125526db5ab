import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { profileKeys } from './keys.ts';

/** POST profile/mfa/recovery-codes {code}: ten new codes; the old ones stop working. */
export const renewRecoveryCodes = async (code: string) =>
  (await apiClient.post<{ recoveryCodes: string[] }>(apiPaths.profileMfaRecoveryCodes, { code })).data
    .recoveryCodes;

export function useRenewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renewRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.detail('mfa') }),
  });
}
