import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerPaths } from '@app/contract/customers-texts';
import type { Envelope } from '@app/contract/envelope';
import { apiClient } from '#web/lib/api-client.ts';
import { customerKeys } from './keys.ts';

export const deleteCustomer = (id: string) =>
  apiClient.delete<null>(customerPaths.customer(encodeURIComponent(id)));

/** A refusal (it holds machines) is the server's message, toasted by the confirmation. */
export function useDeleteCustomer() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<null>, Error, string>({
    mutationFn: deleteCustomer,
    onSuccess: async (_response, id) => {
      queryClient.removeQueries({ queryKey: customerKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
}
