import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ErasureDecisionBody, ErasureRequest } from '@app/contract/erasure';
import { erasurePaths } from '@app/contract/erasure-texts';
import type { Envelope } from '@app/contract/envelope';
import { apiClient } from '#web/lib/api-client.ts';
import { erasureKeys } from './keys.ts';

type Decide = { id: string; body: ErasureDecisionBody };

export const decideErasureRequest = ({ id, body }: Decide) =>
  apiClient.post<ErasureRequest>(erasurePaths.decide(encodeURIComponent(id)), body);

/**
 * The lists and the request are read again; so is every other cached read, since an erasure changes
 * the patient, their treatments and their history wherever the console shows them.
 */
export function useDecideErasureRequest() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<ErasureRequest>, Error, Decide>({
    mutationFn: decideErasureRequest,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: erasureKeys.all });
      await queryClient.invalidateQueries();
    },
  });
}
