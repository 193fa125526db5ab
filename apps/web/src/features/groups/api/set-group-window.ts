import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { maintenanceWindowPaths, type MaintenanceWindow } from '@app/contract/maintenance-windows';
import { apiClient } from '#web/lib/api-client.ts';
import { groupKeys } from './keys.ts';

type GroupWindow = { window: MaintenanceWindow | null; machineCount: number };
type SetWindow = { id: string; window: MaintenanceWindow | null };

/** PUT groups/{id}/maintenance-window (groups.manage): set on the group's machines now; null removes it. */
export const setGroupWindow = ({ id, window }: SetWindow) =>
  apiClient.put<GroupWindow>(maintenanceWindowPaths.group(encodeURIComponent(id)), { window });

export function useSetGroupWindow() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<GroupWindow>, Error, SetWindow>({
    mutationFn: setGroupWindow,
    onSuccess: (_response, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: groupKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: groupKeys.lists() }),
      ]),
  });
}
