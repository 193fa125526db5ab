import { zodResolver } from '@hookform/resolvers/zod';
import { deviceFormSchema, deviceMessages, type Device, type DeviceFormInput } from '@app/contract/devices';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { useAddDevice } from '../api/add-device.ts';
import { useUpdateDevice } from '../api/update-device.ts';

export type DeviceFormModalProps = {
  show: boolean;
  onClose: () => void;
  /** The device being edited; absent to add a new one. */
  device?: Device | null;
};

const blank: DeviceFormInput = {
  machineNumber: '',
  serialNumber: '',
  location: '',
  latitude: '',
  longitude: '',
  city: '',
  country: '',
  address: '',
};

const fromDevice = (d: Device): DeviceFormInput => ({
  machineNumber: d.machineNumber,
  serialNumber: d.serialNumber,
  location: d.location,
  latitude: String(d.latitude),
  longitude: String(d.longitude),
  city: d.city,
  country: d.country,
  address: d.address,
});

/** Add or edit a device (docs/product.md §2.5, §5.5): every field required; machine and serial number read-only on edit. */
export function DeviceFormModal({ show, onClose, device }: DeviceFormModalProps) {
  const editing = Boolean(device);
  const add = useAddDevice();
  const update = useUpdateDevice();
  const form = useFormModal({
    show,
    resolver: zodResolver(deviceFormSchema),
    blank,
    record: device,
    valuesOf: fromDevice,
    columns: 2,
  });
  const { field } = form;

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={editing ? 'Edit Device' : 'Add New Device'}
      submitLabel={editing ? 'Update Device' : 'Add Device'}
      pending={add.isPending || update.isPending}
      onSave={(body) => (device ? update.mutateAsync({ id: device._id, body }) : add.mutateAsync(body))}
      saved={deviceMessages.added}
    >
      {field('machineNumber', 'Machine Number', { readOnly: editing })}
      {field('serialNumber', 'Serial Number', { readOnly: editing })}
      {field('location', 'Location')}
      {field('city', 'City')}
      {field('latitude', 'Latitude', { inputMode: 'decimal' })}
      {field('longitude', 'Longitude', { inputMode: 'decimal' })}
      {field('country', 'Country')}
      {field('address', 'Address')}
    </FormModal>
  );
}
