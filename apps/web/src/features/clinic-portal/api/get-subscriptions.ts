import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClinicSubscriptions } from '@app/contract/clinic-portal';
import { clinicPortalApiPaths } from '@app/contract/clinic-portal-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicPortalKeys } from './keys.ts';

/** GET clinic/subscriptions: the clinic's subscriptions with their payments and what it may do. */
export async function getClinicSubscriptions(signal?: AbortSignal): Promise<ClinicSubscriptions> {
  const response = await apiClient.get<ClinicSubscriptions>(clinicPortalApiPaths.subscriptions, { signal });
  return response.data;
}

export const clinicSubscriptionsQueryOptions = () =>
  queryOptions({
    queryKey: clinicPortalKeys.list({ subscriptions: true }),
    queryFn: ({ signal }) => getClinicSubscriptions(signal),
  });

export const useClinicSubscriptions = () => useQuery(clinicSubscriptionsQueryOptions());
