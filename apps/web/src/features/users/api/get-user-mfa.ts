import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserMfaStatus } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { userKeys } from './keys.ts';

/** GET users/{id}/mfa: the user's two-step sign-in, and what a reset would ask of the signed-in admin. */
export async function getUserMfa(id: string, signal?: AbortSignal): Promise<UserMfaStatus> {
  return (await apiClient.get<UserMfaStatus>(apiPaths.userMfa(encodeURIComponent(id)), { signal })).data;
}

export const userMfaQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...userKeys.detail(id), 'mfa'] as const,
    queryFn: ({ signal }) => getUserMfa(id, signal),
  });

export const useUserMfa = (id: string) => useQuery(userMfaQueryOptions(id));
