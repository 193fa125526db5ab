import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LegalHold, LegalHoldBody, LegalHoldLiftBody } from '@app/contract/retention';
import { retentionPaths } from '@app/contract/retention-texts';
import type { Envelope } from '@app/contract/envelope';
import { apiClient } from '#web/lib/api-client.ts';
import { retentionKeys } from './keys.ts';

/** Placing or lifting a hold reads the holds again (another admin may have changed them too). */
function useHoldMutation<T>(mutationFn: (input: T) => Promise<Envelope<LegalHold>>) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<LegalHold>, Error, T>({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}

export const usePlaceLegalHold = () =>
  useHoldMutation((body: LegalHoldBody) => apiClient.post<LegalHold>(retentionPaths.holds, body));

export const useLiftLegalHold = () =>
  useHoldMutation(({ id, body }: { id: string; body: LegalHoldLiftBody }) =>
    apiClient.post<LegalHold>(retentionPaths.lift(encodeURIComponent(id)), body),
  );
