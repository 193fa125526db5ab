import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { outboxPaths, type MailStatus, type OutboxList } from '@app/contract/outbox';
import { apiClient } from '#web/lib/api-client.ts';
import { outboxKeys } from './keys.ts';

export type OutboxListParams = {
  page: number;
  limit: number;
  status?: MailStatus | undefined;
  search?: string | undefined;
};

export async function getOutbox(params: OutboxListParams, signal?: AbortSignal): Promise<OutboxList | null> {
  const response = await apiClient.getList<OutboxList>(outboxPaths.list, { query: params, signal });
  return response.data;
}

export const outboxQueryOptions = (params: OutboxListParams) =>
  queryOptions({
    queryKey: outboxKeys.list(params),
    queryFn: ({ signal }) => getOutbox(params, signal),
    placeholderData: keepPreviousData,
  });

export const useOutbox = (params: OutboxListParams) => useQuery(outboxQueryOptions(params));
