import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkResult, DeviceBulkFilters } from '@app/contract/bulk-actions';
import type { DeviceStatus } from '@app/contract/devices';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys } from './keys.ts';

/** The devices picked, or every device the list's filters match (the server resolves them). */
export type DeviceBulkSelection = { ids: string[] } | { allMatching: DeviceBulkFilters };

/** POST machine/bulk-status: answered device by device (decision 055). */
export const bulkDeviceStatus = (selection: DeviceBulkSelection, status: DeviceStatus) =>
  apiClient.post<BulkResult>(apiPaths.machineBulkStatus, { ...selection, status });

/** Every device list and any open device refetch: many rows changed. */
export function useBulkDeviceStatus() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<BulkResult>, Error, { selection: DeviceBulkSelection; status: DeviceStatus }>({
    mutationFn: ({ selection, status }) => bulkDeviceStatus(selection, status),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}
