import { useId, useState } from 'react';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useDebouncedValue } from '#web/lib/use-debounced-value.ts';
import type { AssignedMachine } from '../api/get-user-machines.ts';
import { useSaveUserMachines } from '../api/save-user-machines.ts';
import { MACHINE_OPTIONS_LIMIT, useMachineOptions } from '../api/search-machines.ts';

type Picked = Pick<AssignedMachine, 'deviceId' | 'machineNumber' | 'serialNumber'>;

export type MachinesPickerModalProps = {
  userId: string;
  userName: string;
  assigned: readonly AssignedMachine[];
  onClose: () => void;
};

/** Picks the whole set of a technician's machines: search, tick, review the chosen ones, save. */
export function MachinesPickerModal({ userId, userName, assigned, onClose }: MachinesPickerModalProps) {
  const [picked, setPicked] = useState<Picked[]>(() => assigned.map(({ assignedAt: _, ...m }) => m));
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim());
  const options = useMachineOptions(debounced, true);
  const save = useSaveUserMachines(userId);
  const resultsId = useId();
  const pickedIds = new Set(picked.map((m) => m.deviceId));

  const toggle = (machine: Picked, on: boolean) =>
    setPicked((current) =>
      on ? [...current, machine] : current.filter((m) => m.deviceId !== machine.deviceId),
    );
  const submit = () =>
    save.mutate(
      { deviceIds: picked.map((m) => m.deviceId) },
      {
        onSuccess: (response) => {
          notify.success(response.msg || 'Machines assigned');
          onClose();
        },
        onError: (error) => notifyError(error),
      },
    );

  const devices = options.data?.allDevices ?? [];
  const total = options.data?.total ?? 0;
  return (
    <Modal
      show
      onClose={onClose}
      title={`Machines of ${userName}`}
      size="lg"
      staticBackdrop={save.isPending}
      footer={
        <ModalFormFooter onCancel={onClose} pending={save.isPending} submitLabel="Save" onSubmit={submit} />
      }
    >
      <div className="row g-4">
        <div className="col-md-7">
          <SearchBox label="Search machines" value={search} onChange={setSearch} className="mb-3" />
          <fieldset aria-describedby={resultsId}>
            <legend className="fs-6 fw-semibold">Machines</legend>
            {options.isPending ? (
              <Spinner label="Loading machines..." />
            ) : devices.length === 0 ? (
              <p className="text-body-secondary mb-0">No machines match.</p>
            ) : (
              devices.map((device) => {
                const id = `${resultsId}-${device._id}`;
                const machine = {
                  deviceId: device._id,
                  machineNumber: device.machineNumber,
                  serialNumber: device.serialNumber,
                };
                return (
                  <div className="form-check" key={device._id}>
                    <input
                      className="form-check-input"
                      type="checkbox"
                      id={id}
                      checked={pickedIds.has(device._id)}
                      onChange={(event) => toggle(machine, event.target.checked)}
                    />
                    <label className="form-check-label" htmlFor={id}>
                      {device.machineNumber}{' '}
                      <span className="text-body-secondary small">({device.serialNumber})</span>
                    </label>
                  </div>
                );
              })
            )}
          </fieldset>
          <p id={resultsId} className="small text-body-secondary mt-2 mb-0" aria-live="polite">
            {total > MACHINE_OPTIONS_LIMIT
              ? `Showing ${MACHINE_OPTIONS_LIMIT} of ${total} machines: search to narrow them down.`
              : null}
          </p>
        </div>
        <div className="col-md-5">
          <h3 className="fs-6 fw-semibold">Assigned ({picked.length})</h3>
          {picked.length === 0 ? (
            <p className="text-body-secondary mb-0">None: this technician can sign in on no machine.</p>
          ) : (
            <ul className="list-unstyled mb-0">
              {picked.map((machine) => (
                <li
                  key={machine.deviceId}
                  className="d-flex justify-content-between align-items-center gap-2 mb-1"
                >
                  <span>
                    {machine.machineNumber}{' '}
                    <span className="text-body-secondary small">({machine.serialNumber})</span>
                  </span>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    aria-label={`Remove ${machine.machineNumber}`}
                    onClick={() => toggle(machine, false)}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Modal>
  );
}
