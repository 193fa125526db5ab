import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BreakGlassBody, BreakGlassGrant } from '@app/contract/break-glass';
import { breakGlassPaths } from '@app/contract/break-glass-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { accessHistoryKeys } from './keys.ts';

/**
 * POST patient/{id}/break-glass (decision 082): the patient unmasked and when the access ends. As a
 * reveal's, the answer lives in the mutation only, never in the query cache: shown on this page, gone
 * when the admin leaves it. A step-up is asked by the API client when it is due.
 */
export function useBreakGlass(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation<BreakGlassGrant, Error, BreakGlassBody>({
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessHistoryKeys.all }),
    mutationFn: async (body) =>
      (await apiClient.post<BreakGlassGrant>(breakGlassPaths.patient(encodeURIComponent(patientId)), body))
        .data,
  });
}
