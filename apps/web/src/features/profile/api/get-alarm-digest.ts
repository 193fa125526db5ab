import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlarmDigest } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { profileKeys } from './keys.ts';

/** Whether the signed-in admin gets the daily digest of open alarms (decision 049). */
export async function getAlarmDigest(signal?: AbortSignal): Promise<AlarmDigest> {
  return (await apiClient.get<AlarmDigest>(apiPaths.profileAlarmDigest, { signal })).data;
}

export const alarmDigestQueryOptions = () =>
  queryOptions({
    queryKey: profileKeys.detail('alarm-digest'),
    queryFn: ({ signal }) => getAlarmDigest(signal),
  });

export const useAlarmDigest = () => useQuery(alarmDigestQueryOptions());
