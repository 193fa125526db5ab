import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssignMachinesBody } from '@app/contract/device-enrolment';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { userMachineKeys } from './keys.ts';

/** PUT users/{id}/machines: the whole set of machines the technician is assigned to. */
export const saveUserMachines = (id: string, body: AssignMachinesBody) =>
  apiClient.put<unknown>(apiPaths.userMachines(encodeURIComponent(id)), body);

export function useSaveUserMachines(id: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<unknown>, Error, AssignMachinesBody>({
    mutationFn: (body) => saveUserMachines(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userMachineKeys.detail(id) }),
  });
}
