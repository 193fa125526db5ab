import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceForm } from '@app/contract/devices';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { deviceKeys } from './keys.ts';

/** POST machine/add. */
export const addDevice = (body: DeviceForm) => apiClient.post<Device>(apiPaths.machineAdd, body);

export function useAddDevice() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<Device>, Error, DeviceForm>({
    mutationFn: addDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.lists() }),
  });
}
