import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UsageReport } from '@app/contract/clinic-portal';
import { clinicPortalApiPaths } from '@app/contract/clinic-portal-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicPortalKeys } from './keys.ts';

/** GET clinic/usage: one month's usage per machine (the current month without one). */
export async function getUsage(month: string | undefined, signal?: AbortSignal): Promise<UsageReport> {
  const response = await apiClient.get<UsageReport>(clinicPortalApiPaths.usage, { query: { month }, signal });
  return response.data;
}

export const usageQueryOptions = (month: string | undefined) =>
  queryOptions({
    queryKey: clinicPortalKeys.list({ usage: month ?? '' }),
    queryFn: ({ signal }) => getUsage(month, signal),
    placeholderData: keepPreviousData,
  });

export const useUsage = (month: string | undefined) => useQuery(usageQueryOptions(month));
