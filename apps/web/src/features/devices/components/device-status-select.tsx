import {
  deviceMessages,
  deviceStatusLabels,
  deviceStatuses,
  type Device,
  type DeviceStatus,
} from '@app/contract/devices';
import { notify } from '#web/lib/notify.ts';
import { notifyError } from '#web/lib/api-client.ts';
import { orNA } from '#web/lib/format.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useUpdateDevice } from '../api/update-device.ts';

/**
 * The list's per-row status select: sends only the status (docs/product.md §4.3) and confirms with a
 * toast. An admin who may not edit machines sees the status as text (decision 047).
 */
export function DeviceStatusSelect({ device }: { device: Device }) {
  const mayEdit = useCan('devices.edit');
  return mayEdit ? (
    <StatusSelect device={device} />
  ) : (
    <>{orNA(deviceStatusLabels[device.status as DeviceStatus])}</>
  );
}

function StatusSelect({ device }: { device: Device }) {
  const update = useUpdateDevice();
  const change = async (status: DeviceStatus) => {
    try {
      await update.mutateAsync({ id: device._id, body: { status } });
      notify.success(deviceMessages.statusUpdated);
    } catch (error) {
      notifyError(error);
    }
  };
  const pending =
    update.isPending && update.variables && 'status' in update.variables.body
      ? update.variables.body.status
      : null;
  return (
    <select
      className="form-select form-select-sm w-auto"
      aria-label={`Status of ${device.machineNumber}`}
      value={pending ?? device.status}
      disabled={update.isPending}
      onChange={(event) => void change(Number(event.target.value) as DeviceStatus)}
    >
      {deviceStatuses.map((status) => (
        <option key={status} value={status}>
          {deviceStatusLabels[status]}
        </option>
      ))}
    </select>
  );
}
