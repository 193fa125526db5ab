import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { logStaleTimeMs, type AccessLogList, type ErrorLogList } from '@app/contract/logs';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '../lib/api-client.ts';
import { createQueryKeys } from '../lib/query-keys.ts';

/*
 * The two Admin Logs endpoints, shared by the Admin Logs page and the device, doctor, patient and
 * technician pages (through LogsTabs), so they live beside the shared component, not in a feature.
 */
export const logKeys = createQueryKeys('logs');

export type LogKind = 'access' | 'error';
export type LogListParams = {
  kind: LogKind;
  page: number;
  limit: number;
  search?: string;
  userId?: string;
  machineNumber?: string;
  /** UTC days, both included. */
  from?: string;
  to?: string;
  /** The previous page's nextCursor: the server continues from there instead of skipping rows. */
  after?: string;
};
type LogList<K extends LogKind> = K extends 'access' ? AccessLogList : ErrorLogList;

/** GET access-logs/all or error-logs/all; a 400 reads as an empty list (docs/product.md §7.4). */
export async function getLogs<K extends LogKind>(
  params: LogListParams & { kind: K },
  signal?: AbortSignal,
): Promise<LogList<K> | null> {
  const { kind, ...query } = params;
  const path = kind === 'access' ? apiPaths.accessLogsAll : apiPaths.errorLogsAll;
  const response = await apiClient.getList<LogList<K>>(path, { query, signal });
  return response.data;
}

/** docs/product.md §7.4 and §9: log queries are cached for 5 seconds. */
export const logsQueryOptions = <K extends LogKind>(params: LogListParams & { kind: K }) =>
  queryOptions({
    queryKey: logKeys.list(params),
    queryFn: ({ signal }) => getLogs(params, signal),
    staleTime: logStaleTimeMs,
    placeholderData: keepPreviousData,
  });

export const useLogs = <K extends LogKind>(params: LogListParams & { kind: K }, enabled = true) =>
  useQuery({ ...logsQueryOptions(params), enabled });
