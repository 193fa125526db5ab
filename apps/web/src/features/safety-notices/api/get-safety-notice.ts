import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SafetyNotice } from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { safetyNoticeKeys } from './keys.ts';

export async function getSafetyNotice(id: string, signal?: AbortSignal) {
  return (await apiClient.getList<SafetyNotice>(safetyNoticePaths.notice(encodeURIComponent(id)), { signal }))
    .data;
}

export const safetyNoticeQueryOptions = (id: string) =>
  queryOptions({
    queryKey: safetyNoticeKeys.detail(id),
    queryFn: ({ signal }) => getSafetyNotice(id, signal),
  });

export const useSafetyNotice = (id: string) => useQuery(safetyNoticeQueryOptions(id));
