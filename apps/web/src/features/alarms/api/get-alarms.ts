import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AlarmList, AlarmRule, AlarmState } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { alarmKeys } from './keys.ts';

export type AlarmListParams = {
  page: number;
  limit: number;
  state: AlarmState;
  rule?: AlarmRule | undefined;
  search?: string | undefined;
};

export async function getAlarms(params: AlarmListParams, signal?: AbortSignal): Promise<AlarmList | null> {
  const response = await apiClient.getList<AlarmList>(apiPaths.alarms, { query: params, signal });
  return response.data;
}

export const alarmsQueryOptions = (params: AlarmListParams) =>
  queryOptions({
    queryKey: alarmKeys.list(params),
    queryFn: ({ signal }) => getAlarms(params, signal),
    placeholderData: keepPreviousData,
  });

export const useAlarms = (params: AlarmListParams) => useQuery(alarmsQueryOptions(params));
