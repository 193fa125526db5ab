import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { commandPaths, openCommandStates, type Command, type CommandList } from '@app/contract/commands';
import { apiClient } from '#web/lib/api-client.ts';
import { commandKeys } from './keys.ts';

export type DeviceCommandsParams = { deviceId: string; page: number; limit: number };

/** How often the list is read again while one of its commands may still move (queued or delivered). */
export const openCommandsRefreshMs = 3_000;

/** Queued or delivered: the command may still move. */
export const isOpen = (command: Command) => (openCommandStates as readonly string[]).includes(command.state);

/** GET machine/{id}/commands: the machine's commands, newest first, each with its state. */
export async function getDeviceCommands(
  { deviceId, page, limit }: DeviceCommandsParams,
  signal?: AbortSignal,
): Promise<CommandList | null> {
  const response = await apiClient.getList<CommandList>(
    commandPaths.deviceCommands(encodeURIComponent(deviceId)),
    { query: { page, limit }, signal },
  );
  return response.data;
}

export const deviceCommandsQueryOptions = (params: DeviceCommandsParams) =>
  queryOptions({
    queryKey: commandKeys.list(params),
    queryFn: ({ signal }) => getDeviceCommands(params, signal),
    placeholderData: keepPreviousData,
    // Only while something on the page can still change; TanStack Query pauses the interval while
    // the tab is hidden (refetchIntervalInBackground is off) and reads again when it is shown.
    refetchInterval: (query) => (query.state.data?.commands.some(isOpen) ? openCommandsRefreshMs : false),
  });

export const useDeviceCommands = (params: DeviceCommandsParams) =>
  useQuery(deviceCommandsQueryOptions(params));
