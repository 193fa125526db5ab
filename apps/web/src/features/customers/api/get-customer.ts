import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Customer } from '@app/contract/customers';
import { customerPaths } from '@app/contract/customers-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { customerKeys } from './keys.ts';

const encoded = (id: string) => encodeURIComponent(id);

export async function getCustomer(id: string, signal?: AbortSignal) {
  const response = await apiClient.getList<Customer>(customerPaths.customer(encoded(id)), { signal });
  return response.data;
}

export const customerQueryOptions = (id: string) =>
  queryOptions({ queryKey: customerKeys.detail(id), queryFn: ({ signal }) => getCustomer(id, signal) });

export const useCustomer = (id: string) => useQuery(customerQueryOptions(id));

/** The detail page's paged pieces: machines held now, subscriptions, assignment periods, activity. */
export type CustomerPiece = 'machines' | 'subscriptions' | 'assignments' | 'activity';

/**
 * One page of a piece, under the customer's detail key: saving or deleting the customer, or an
 * assignment, refreshes them with it.
 */
export function useCustomerPiece<T>(id: string, piece: CustomerPiece, page: { page: number; limit: number }) {
  return useQuery({
    queryKey: [...customerKeys.detail(id), piece, page],
    queryFn: async ({ signal }) =>
      (await apiClient.get<T>(customerPaths[piece](encoded(id)), { query: page, signal })).data,
    placeholderData: keepPreviousData,
    // Each card shows its own error, with Try again.
    meta: { silentError: true },
  });
}
