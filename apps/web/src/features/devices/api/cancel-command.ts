import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commandPaths, type Command } from '@app/contract/commands';
import type { Envelope } from '@app/contract/envelope';
import { apiClient } from '#web/lib/api-client.ts';
import { commandKeys } from './keys.ts';

/** POST commands/{id}/cancel (commands.send): only while queued; 409 with the API's reason once delivered. */
export const cancelCommand = (id: string) =>
  apiClient.post<Command>(commandPaths.cancel(encodeURIComponent(id)));

export function useCancelCommand() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Command>, Error, string>({
    mutationFn: cancelCommand,
    // Refused or not, the list is read again: a refused one has moved on meanwhile.
    onSettled: () => queryClient.invalidateQueries({ queryKey: commandKeys.lists() }),
  });
}
