import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BreakGlassAccess, BreakGlassSignOffBody } from '@app/contract/break-glass';
import { breakGlassPaths } from '@app/contract/break-glass-texts';
import type { Envelope } from '@app/contract/envelope';
import { apiClient } from '#web/lib/api-client.ts';
import { breakGlassKeys } from './keys.ts';

type SignOff = { id: string; body: BreakGlassSignOffBody };

export const signOffBreakGlass = ({ id, body }: SignOff) =>
  apiClient.post<BreakGlassAccess>(breakGlassPaths.signOff(encodeURIComponent(id)), body);

/** Both tabs and the bell's count are read again (another reviewer may have signed off meanwhile). */
export function useSignOffBreakGlass() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<BreakGlassAccess>, Error, SignOff>({
    mutationFn: signOffBreakGlass,
    onSettled: () => queryClient.invalidateQueries({ queryKey: breakGlassKeys.all }),
  });
}
