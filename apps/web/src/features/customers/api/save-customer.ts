import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Customer, CustomerCreateBody } from '@app/contract/customers';
import { customerPaths } from '@app/contract/customers-texts';
import type { Envelope } from '@app/contract/envelope';
import { apiClient } from '#web/lib/api-client.ts';
import { customerKeys } from './keys.ts';

/** POST customers (create) or PUT customers/{id} (update) with every field of the form. */
export const saveCustomer = ({ id, body }: { id?: string; body: CustomerCreateBody }) =>
  id
    ? apiClient.put<Customer>(customerPaths.customer(encodeURIComponent(id)), body)
    : apiClient.post<Customer>(customerPaths.list, body);

export function useSaveCustomer() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Customer>, Error, { id?: string; body: CustomerCreateBody }>({
    mutationFn: saveCustomer,
    onSuccess: async (response) => {
      queryClient.setQueryData(customerKeys.detail(response.data._id), response.data);
      await queryClient.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
}
