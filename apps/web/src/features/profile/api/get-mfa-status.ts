import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MfaStatus } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { profileKeys } from './keys.ts';

/** The signed-in admin's two-step sign-in: on or off, recovery codes left, required by the server. */
export async function getMfaStatus(signal?: AbortSignal): Promise<MfaStatus> {
  return (await apiClient.get<MfaStatus>(apiPaths.profileMfa, { signal })).data;
}

export const mfaStatusQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.detail('mfa'), queryFn: ({ signal }) => getMfaStatus(signal) });

export const useMfaStatus = () => useQuery(mfaStatusQueryOptions());
