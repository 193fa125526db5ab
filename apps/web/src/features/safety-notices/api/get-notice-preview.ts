import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { NoticePreview } from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { safetyNoticeKeys } from './keys.ts';

export type PagedParams = { page: number; limit: number };

export async function getNoticePreview(id: string, params: PagedParams, signal?: AbortSignal) {
  const path = safetyNoticePaths.preview(encodeURIComponent(id));
  return (await apiClient.getList<NoticePreview>(path, { query: params, signal })).data;
}

/** The machines a draft's selection matches now (read again whenever the draft changes). */
export const useNoticePreview = (id: string, params: PagedParams, enabled: boolean) =>
  useQuery({
    queryKey: [...safetyNoticeKeys.detail(id), 'preview', params],
    queryFn: ({ signal }) => getNoticePreview(id, params, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
