import { queryOptions, useQuery } from '@tanstack/react-query';
import { outboxPaths, type OutboxMessageDetail } from '@app/contract/outbox';
import { apiClient } from '#web/lib/api-client.ts';
import { outboxKeys } from './keys.ts';

export async function getOutboxMessage(id: string, signal?: AbortSignal) {
  const response = await apiClient.getList<OutboxMessageDetail>(outboxPaths.message(encodeURIComponent(id)), {
    signal,
  });
  return response.data;
}

/** One message with its text (null when it holds a code or a link); read while its dialog is open. */
export const useOutboxMessage = (id: string | null) =>
  useQuery({
    ...queryOptions({
      queryKey: outboxKeys.detail(id ?? ''),
      queryFn: ({ signal }) => getOutboxMessage(id!, signal),
    }),
    enabled: id !== null,
  });
