import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CustomerFacets, CustomerList } from '@app/contract/customers';
import { customerPaths, type CustomerSortKey } from '@app/contract/customers-texts';
import type { SortDirection } from '@app/contract/devices';
import { apiClient } from '#web/lib/api-client.ts';
import { customerKeys } from './keys.ts';

export type CustomerListParams = {
  page: number;
  limit: number;
  sort?: CustomerSortKey;
  direction?: SortDirection;
  search?: string;
  country?: string;
};

/** GET customers: a 400 reads as an empty list (docs/product.md §7.4). */
export async function getCustomers(params: CustomerListParams, signal?: AbortSignal) {
  const response = await apiClient.getList<CustomerList>(customerPaths.list, { query: params, signal });
  return response.data;
}

export const customersQueryOptions = (params: CustomerListParams) =>
  queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: ({ signal }) => getCustomers(params, signal),
    placeholderData: keepPreviousData,
  });

/** `enabled` false until the kept page size and sort are read (decision 053). */
export const useCustomers = (params: CustomerListParams, enabled = true) =>
  useQuery({ ...customersQueryOptions(params), enabled });

/** The countries the customers are in (within the search), with counts: the Country filter's options. */
export const useCustomerFacets = (search: string | undefined) =>
  useQuery({
    // Under the lists' key, so adding or editing a customer refreshes them.
    queryKey: customerKeys.list({ facets: search ?? '' }),
    queryFn: async ({ signal }) =>
      (await apiClient.get<CustomerFacets>(customerPaths.facets, { query: { search }, signal })).data,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
