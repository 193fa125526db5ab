import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EnrolmentCode } from '@app/contract/device-enrolment';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { enrolmentKeys } from './keys.ts';

/** POST machine/{id}/enrolment/code: a new one-time code (any earlier unused one stops working). */
export const issueEnrolmentCode = (id: string) =>
  apiClient.post<EnrolmentCode>(apiPaths.machineEnrolmentCode(encodeURIComponent(id)));

export function useIssueEnrolmentCode(id: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<EnrolmentCode>, Error, void>({
    mutationFn: () => issueEnrolmentCode(id),
    // The status now shows the pending code's expiry.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrolmentKeys.detail(id) }),
  });
}
