import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Operations } from '@app/contract/dashboard';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { dashboardKeys } from './keys.ts';

/** The Operations figures the role may see (decision 050): a group it may not see is absent. */
export async function getOperations(signal?: AbortSignal): Promise<Operations> {
  const response = await apiClient.get<Operations>(apiPaths.dashboardOperations, { signal });
  return response.data;
}

export const operationsQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.operations(), queryFn: ({ signal }) => getOperations(signal) });

export const useOperations = () => useQuery(operationsQueryOptions());
