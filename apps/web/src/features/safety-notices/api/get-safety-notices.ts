import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SafetyNotice } from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { safetyNoticeKeys } from './keys.ts';

export type SafetyNoticeList = {
  notices: SafetyNotice[];
  total: number;
  totalPages: number;
  page: number;
  limit: number;
};
export type SafetyNoticeListParams = { page: number; limit: number };

export async function getSafetyNotices(params: SafetyNoticeListParams, signal?: AbortSignal) {
  return (await apiClient.getList<SafetyNoticeList>(safetyNoticePaths.list, { query: params, signal })).data;
}

export const safetyNoticesQueryOptions = (params: SafetyNoticeListParams) =>
  queryOptions({
    queryKey: safetyNoticeKeys.list(params),
    queryFn: ({ signal }) => getSafetyNotices(params, signal),
    placeholderData: keepPreviousData,
  });

export const useSafetyNotices = (params: SafetyNoticeListParams) =>
  useQuery(safetyNoticesQueryOptions(params));
