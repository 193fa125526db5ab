import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { enrolmentKeys } from './keys.ts';

/** POST machine/{id}/enrolment/revoke: the machine's credential stops working on its next call. */
export const revokeEnrolment = (id: string) =>
  apiClient.post<unknown>(apiPaths.machineEnrolmentRevoke(encodeURIComponent(id)));

export function useRevokeEnrolment(id: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<unknown>, Error, void>({
    mutationFn: () => revokeEnrolment(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrolmentKeys.detail(id) }),
  });
}
