import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { clinicUserKeys } from './keys.ts';

export const removeClinicUser = (id: string) =>
  apiClient.delete<null>(clinicUserPaths.user(encodeURIComponent(id)));

/** DELETE clinic/users/:id: the user's sessions end with them; the list is read again. */
export function useRemoveClinicUser() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<null>, Error, string>({
    mutationFn: removeClinicUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clinicUserKeys.lists() }),
  });
}
