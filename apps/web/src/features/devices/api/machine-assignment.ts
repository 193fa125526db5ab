import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { BulkResult } from '@app/contract/bulk-actions';
import { customerPaths } from '@app/contract/customers-texts';
import type { Envelope } from '@app/contract/envelope';
import type { Assignment, AssignmentBody, ReturnBody } from '@app/contract/machine-assignments';
import { assignmentKeys } from '#web/components/assignment-history.tsx';
import { apiClient } from '#web/lib/api-client.ts';
import type { DeviceBulkSelection } from './bulk-device-status.ts';
import { deviceKeys } from './keys.ts';

/*
 * A machine's holder (issue 39 item 2, decision 087): assign or move it to a customer from a date,
 * return it to the supplier, or assign many at once from Device Management. Each refreshes the
 * machines, every assignment history on screen and the customers (their counts and pages).
 */
const refresh = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
    queryClient.invalidateQueries({ queryKey: assignmentKeys }),
    queryClient.invalidateQueries({ queryKey: ['customers'] }),
  ]);

const encoded = (id: string) => encodeURIComponent(id);

export function useAssignMachine(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Assignment>, Error, AssignmentBody>({
    mutationFn: (body) =>
      apiClient.post<Assignment>(customerPaths.machineAssignment(encoded(deviceId)), body),
    onSuccess: () => refresh(queryClient),
  });
}

export function useReturnMachine(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Assignment>, Error, ReturnBody>({
    mutationFn: (body) => apiClient.post<Assignment>(customerPaths.machineReturn(encoded(deviceId)), body),
    onSuccess: () => refresh(queryClient),
  });
}

/** POST machine/bulk-assign: answered machine by machine (decision 055). */
export function useBulkAssign() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<BulkResult>, Error, { selection: DeviceBulkSelection; body: AssignmentBody }>({
    mutationFn: ({ selection, body }) =>
      apiClient.post<BulkResult>(customerPaths.machineBulkAssign, { ...selection, ...body }),
    onSuccess: () => refresh(queryClient),
  });
}
