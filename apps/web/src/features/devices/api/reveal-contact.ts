import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Doctor, Patient } from '@app/contract/device-users';
import type { RevealBody } from '@app/contract/masking';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { accessHistoryKeys } from './keys.ts';

export type RevealKind = 'patient' | 'doctor';
type Revealed<K extends RevealKind> = K extends 'patient' ? Patient : Doctor;

/**
 * POST patient|doctor/{id}/reveal (decision 045): the record with its contact data as it is. The
 * answer lives in the mutation only, never in the query cache: it is shown in this view and gone
 * when the admin leaves it.
 */
export function useRevealContact<K extends RevealKind>(kind: K, id: string) {
  const queryClient = useQueryClient();
  return useMutation<Revealed<K>, Error, RevealBody>({
    // The reveal is now in the record's access history.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessHistoryKeys.all }),
    mutationFn: async (body) => {
      const path = kind === 'patient' ? apiPaths.patientReveal : apiPaths.doctorReveal;
      return (await apiClient.post<Revealed<K>>(path(encodeURIComponent(id)), body)).data;
    },
  });
}
