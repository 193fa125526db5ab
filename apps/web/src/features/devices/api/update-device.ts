import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceForm, DeviceStatus } from '@app/contract/devices';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys } from './keys.ts';

/** PUT machine/{id}: the whole form (machine and serial number unchanged), or only the status (docs/product.md §4.3). */
export const updateDevice = (id: string, body: DeviceForm | { status: DeviceStatus }) =>
  apiClient.put<Device>(apiPaths.machine(encodeURIComponent(id)), body);

/** The device refreshes in place and every device list refetches. */
export function useUpdateDevice() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Device>, Error, { id: string; body: DeviceForm | { status: DeviceStatus } }>({
    mutationFn: ({ id, body }) => updateDevice(id, body),
    onSuccess: async (response) => {
      queryClient.setQueryData(deviceKeys.detail(response.data._id), response.data);
      await queryClient.invalidateQueries({ queryKey: deviceKeys.lists() });
    },
  });
}
