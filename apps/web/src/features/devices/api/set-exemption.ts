import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { licencePaths, type ExemptionBody, type Licence } from '@app/contract/licences';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys, licenceKeys } from './keys.ts';

const exemptionPath = (id: string) => licencePaths.deviceExemption(encodeURIComponent(id));

/** PUT machine/{id}/licence/exemption (licences.manage; the API client asks for the step-up). */
export const setExemption = (id: string, body: ExemptionBody) =>
  apiClient.put<Licence>(exemptionPath(id), body);

/** POST machine/{id}/licence/exemption/end: the machine's subscriptions decide its licence again. */
export const endExemption = (id: string, body: { reason: string }) =>
  apiClient.post<null>(`${exemptionPath(id)}/end`, body);

/** The licence and the device list are read again: the Licence column and facet follow the state. */
function useAfterLicenceChange(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: licenceKeys.detail(id) }),
      queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
    ]);
}

export function useSetExemption(id: string) {
  const settled = useAfterLicenceChange(id);
  return useMutation<Envelope<Licence>, Error, ExemptionBody>({
    mutationFn: (body) => setExemption(id, body),
    onSettled: settled,
  });
}

export function useEndExemption(id: string) {
  const settled = useAfterLicenceChange(id);
  return useMutation<Envelope<null>, Error, { reason: string }>({
    mutationFn: (body) => endExemption(id, body),
    onSettled: settled,
  });
}
