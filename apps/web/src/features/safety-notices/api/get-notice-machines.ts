import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { NoticeMachines } from '@app/contract/safety-notices';
import { safetyNoticePaths, type NoticeMachineFilter } from '@app/contract/safety-notices-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { safetyNoticeKeys } from './keys.ts';

export type NoticeMachinesParams = { page: number; limit: number; status?: NoticeMachineFilter | undefined };

export async function getNoticeMachines(id: string, params: NoticeMachinesParams, signal?: AbortSignal) {
  const path = safetyNoticePaths.machines(encodeURIComponent(id));
  return (await apiClient.getList<NoticeMachines>(path, { query: params, signal })).data;
}

/** A sent notice per machine, with its counts. */
export const useNoticeMachines = (id: string, params: NoticeMachinesParams, enabled: boolean) =>
  useQuery({
    queryKey: [...safetyNoticeKeys.detail(id), 'machines', params],
    queryFn: ({ signal }) => getNoticeMachines(id, params, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
