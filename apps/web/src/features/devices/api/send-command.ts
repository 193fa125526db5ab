import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commandPaths, type Command, type SendCommandBody } from '@app/contract/commands';
import type { Envelope } from '@app/contract/envelope';
import { apiClient } from '#web/lib/api-client.ts';
import { commandKeys } from './keys.ts';

/**
 * POST machine/{id}/commands (commands.send; a disruptive kind needs commands.disruptive too and a
 * step-up, which the API client asks for).
 */
export const sendCommand = (deviceId: string, body: SendCommandBody) =>
  apiClient.post<Command>(commandPaths.deviceCommands(encodeURIComponent(deviceId)), body);

export function useSendCommand(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Command>, Error, SendCommandBody>({
    mutationFn: (body) => sendCommand(deviceId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: commandKeys.lists() }),
  });
}
