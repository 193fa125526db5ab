import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CustomerActivity } from '@app/contract/customers';
import { clinicPortalApiPaths } from '@app/contract/clinic-portal-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicPortalKeys } from './keys.ts';

export type ClinicActivityPage = {
  activity: CustomerActivity[];
  total: number;
  totalPages: number;
  page: number;
  limit: number;
};

/** GET clinic/activity: a page of the manager's clinic's activity, newest first. */
export const useClinicActivity = (params: { page: number; limit: number }) =>
  useQuery({
    queryKey: clinicPortalKeys.list({ activity: params }),
    queryFn: async ({ signal }) =>
      (await apiClient.getList<ClinicActivityPage>(clinicPortalApiPaths.activity, { query: params, signal }))
        .data,
    placeholderData: keepPreviousData,
  });
