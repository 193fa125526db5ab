import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  deviceFormSchema,
  deviceMessages,
  type Device,
  type DeviceForm,
  type DeviceFormInput,
} from '@app/contract/devices';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { notify } from '#web/lib/notify.ts';
import { notifyError } from '#web/lib/api-client.ts';
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
  const pending = add.isPending || update.isPending;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<DeviceFormInput, unknown, DeviceForm>({
    resolver: zodResolver(deviceFormSchema),
    defaultValues: blank,
  });

  useEffect(() => {
    if (show) reset(device ? fromDevice(device) : blank);
  }, [show, device, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const response = device
        ? await update.mutateAsync({ id: device._id, body: values })
        : await add.mutateAsync(values);
      notify.success(response.msg || deviceMessages.added);
      onClose();
    } catch (error) {
      notifyError(error);
    }
  });

  const field = (
    name: keyof DeviceFormInput,
    label: string,
    extra: { readOnly?: boolean; inputMode?: 'decimal' } = {},
  ) => (
    <FormField
      label={label}
      required
      error={errors[name]?.message}
      wrapperClassName="col-md-6 mb-3"
      autoComplete="off"
      {...extra}
      {...register(name)}
    />
  );

  return (
    <Modal
      show={show}
      onClose={onClose}
      title={editing ? 'Edit Device' : 'Add New Device'}
      size="lg"
      staticBackdrop
      footer={
        <ModalFormFooter
          onCancel={onClose}
          pending={pending}
          submitLabel={editing ? 'Update Device' : 'Add Device'}
          form="device-form"
        />
      }
    >
      <form id="device-form" noValidate onSubmit={submit} className="row">
        {field('machineNumber', 'Machine Number', { readOnly: editing })}
        {field('serialNumber', 'Serial Number', { readOnly: editing })}
        {field('location', 'Location')}
        {field('city', 'City')}
        {field('latitude', 'Latitude', { inputMode: 'decimal' })}
        {field('longitude', 'Longitude', { inputMode: 'decimal' })}
        {field('country', 'Country')}
        {field('address', 'Address')}
      </form>
    </Modal>
  );
}
