import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminProfile } from '@app/contract/auth';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { profileKeys } from './keys.ts';

export async function getProfile(signal?: AbortSignal): Promise<AdminProfile> {
  const response = await apiClient.get<AdminProfile>(apiPaths.profile, { signal });
  return response.data;
}

export const profileQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.detail('me'), queryFn: ({ signal }) => getProfile(signal) });

export const useProfile = () => useQuery(profileQueryOptions());
