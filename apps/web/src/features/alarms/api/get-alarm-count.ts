import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlarmCount } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { alarmKeys } from './keys.ts';

/** How often the bell's count may be read again while the console is in use. */
export const ALARM_COUNT_STALE_MS = 60_000;

export async function getAlarmCount(signal?: AbortSignal): Promise<AlarmCount> {
  const response = await apiClient.get<AlarmCount>(apiPaths.alarmsCount, { signal });
  return response.data;
}

/**
 * The bell's count: one row on the server. Read again when stale on a new screen, on the window's
 * focus and after an alarm is acknowledged or resolved; never by a timer, because every request
 * counts as activity and a poll would keep an idle session alive past its idle limit (decision 049).
 */
export const alarmCountQueryOptions = () =>
  queryOptions({
    queryKey: alarmKeys.count(),
    queryFn: ({ signal }) => getAlarmCount(signal),
    staleTime: ALARM_COUNT_STALE_MS,
    refetchOnWindowFocus: true,
    // A bell that cannot be read stays as it was: no toast on every screen for it.
    meta: { silentError: true },
  });

export const useAlarmCount = (enabled: boolean) => useQuery({ ...alarmCountQueryOptions(), enabled });
