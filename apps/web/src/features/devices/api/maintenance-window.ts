import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import {
  maintenanceWindowPaths,
  type MachineWindow,
  type MaintenanceWindow,
} from '@app/contract/maintenance-windows';
import { apiClient } from '#web/lib/api-client.ts';
import { commandKeys, maintenanceWindowKeys } from './keys.ts';

const path = (id: string) => maintenanceWindowPaths.machine(encodeURIComponent(id));

/** GET machine/{id}/maintenance-window: the window, where it comes from, open now, a treatment running. */
async function getMaintenanceWindow(id: string, signal?: AbortSignal): Promise<MachineWindow> {
  return (await apiClient.get<MachineWindow>(path(id), { signal })).data;
}

export const useMaintenanceWindow = (id: string) =>
  useQuery(
    queryOptions({
      queryKey: maintenanceWindowKeys.detail(id),
      queryFn: ({ signal }) => getMaintenanceWindow(id, signal),
    }),
  );

/** PUT machine/{id}/maintenance-window (devices.edit); null removes it. Commands say why they wait: read them again. */
export function useSetMaintenanceWindow(id: string) {
  const queryClient = useQueryClient();
  return useMutation<Envelope<MachineWindow>, Error, MaintenanceWindow | null>({
    mutationFn: (window) => apiClient.put<MachineWindow>(path(id), { window }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: maintenanceWindowKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: commandKeys.all }),
      ]),
  });
}
