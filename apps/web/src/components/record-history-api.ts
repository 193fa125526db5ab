import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordHistory } from '@app/contract/record-history';
import { apiClient } from '../lib/api-client.ts';
import { createQueryKeys } from '../lib/query-keys.ts';

/*
 * A record's change history (decision 081), read by the History section of every record's page:
 * shared, so it lives beside the shared component, not in a feature. Any change the console saves
 * may add to a history, so every successful mutation marks them stale (app/query-client.ts).
 */
export const recordHistoryKeys = createQueryKeys('record-history');

export type RecordHistoryParams = { path: string; page: number; limit: number };

/** GET <record>/history; a 400 reads as an empty history (docs/product.md §7.4). */
async function getRecordHistory({ path, page, limit }: RecordHistoryParams, signal?: AbortSignal) {
  const response = await apiClient.getList<RecordHistory>(path, { query: { page, limit }, signal });
  return response.data;
}

const recordHistoryQueryOptions = (params: RecordHistoryParams) =>
  queryOptions({
    queryKey: recordHistoryKeys.list(params),
    queryFn: ({ signal }) => getRecordHistory(params, signal),
    placeholderData: keepPreviousData,
    // The section shows its own error, with Try again.
    meta: { silentError: true },
  });

export const useRecordHistory = (params: RecordHistoryParams) => useQuery(recordHistoryQueryOptions(params));
