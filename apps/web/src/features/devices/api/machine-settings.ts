import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import {
  settingsPaths,
  type MachineSettingsView,
  type SettingsChangeBody,
} from '@app/contract/machine-settings';
import { apiClient } from '#web/lib/api-client.ts';
import { createQueryKeys } from '#web/lib/query-keys.ts';
import { deviceKeys } from './keys.ts';

/** A machine's settings of its app (issue 37 item 3), under the machine's id. */
const machineSettingsKeys = createQueryKeys('machine-settings');

const path = (id: string) => settingsPaths.machine(encodeURIComponent(id));

/** GET machine/{id}/settings: the effective values, where each comes from, the machine's own, drift. */
async function getMachineSettings(id: string, signal?: AbortSignal): Promise<MachineSettingsView> {
  return (await apiClient.get<MachineSettingsView>(path(id), { signal })).data;
}

export const useMachineSettings = (id: string) =>
  useQuery(
    queryOptions({
      queryKey: machineSettingsKeys.detail(id),
      queryFn: ({ signal }) => getMachineSettings(id, signal),
    }),
  );

/**
 * PATCH machine/{id}/settings (devices.edit): a value sets the machine's own, null removes it. The
 * answer is the new view; the device lists are read again because their Settings filter (drift)
 * may now hold this machine.
 */
export function useChangeMachineSettings(id: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<MachineSettingsView>, Error, SettingsChangeBody>({
    mutationFn: (changes) => apiClient.patch<MachineSettingsView>(path(id), changes),
    onSuccess: (answer) => queryClient.setQueryData(machineSettingsKeys.detail(id), answer.data),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: machineSettingsKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.lists() }),
      ]),
  });
}
