import { useState, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Device } from '@app/contract/devices';
import {
  maintenanceWindowMessages,
  maintenanceWindowSchema,
  type MachineWindow,
  type MaintenanceWindow,
} from '@app/contract/maintenance-windows';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { notifyError } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useMaintenanceWindow, useSetMaintenanceWindow } from '../api/maintenance-window.ts';

/** Every zone the browser knows, the admin's own first: a machine is most often where its admin is. */
const ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const zones = [ownZone, ...Intl.supportedValuesOf('timeZone').filter((z) => z !== ownZone)];

const inWords = (w: MaintenanceWindow) =>
  `${w.start} to ${w.end} every day${w.end < w.start ? ' (past midnight)' : ''}, ${w.timeZone}`;

/**
 * Device Details "Maintenance Window" (issue 37 item 4): when a restart or a re-enrol may reach the
 * machine, where that window comes from (the machine, or a group it was set on), whether it is open
 * now, and whether a treatment runs (then nothing that waits for the window goes). Setting it needs
 * devices.edit.
 */
export function MaintenanceWindowCard({ device }: { device: Device }) {
  const mayEdit = useCan('devices.edit');
  const query = useMaintenanceWindow(device._id);
  const save = useSetMaintenanceWindow(device._id);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);

  let body;
  if (query.isPending) body = <Spinner label="Loading maintenance window..." />;
  else if (query.isError)
    body = (
      <LoadError
        error={query.error}
        fallback="The maintenance window could not be loaded."
        onRetry={() => void query.refetch()}
      />
    );
  else body = <WindowFacts state={query.data} />;

  const has = Boolean(query.data?.window);
  return (
    <SectionCard
      title="Maintenance Window"
      actions={
        query.isSuccess && mayEdit ? (
          <div className="d-flex flex-wrap gap-2">
            <button type="button" className="btn btn-sm btn-primary" onClick={() => setEditing(true)}>
              {has ? 'Change window' : 'Set window'}
            </button>
            {has ? (
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                onClick={() => setRemoving(true)}
              >
                Remove window
              </button>
            ) : null}
          </div>
        ) : null
      }
    >
      {body}
      {mayEdit ? (
        <>
          <WindowFormModal
            machineNumber={device.machineNumber}
            current={query.data?.window ?? null}
            show={editing}
            onClose={() => setEditing(false)}
            onSave={(window) => save.mutateAsync(window)}
            pending={save.isPending}
          />
          <ConfirmModal
            show={removing}
            title="Remove maintenance window"
            text="Restarts and re-enrolments may then reach this machine at any time, though never during a treatment."
            confirmText="Remove"
            cancelText="Cancel"
            pendingText="Removing..."
            isPending={save.isPending}
            onCancel={() => setRemoving(false)}
            onConfirm={() =>
              save.mutate(null, {
                onSuccess: (answer) => {
                  notify.success(answer.msg || maintenanceWindowMessages.cleared);
                  setRemoving(false);
                },
                onError: (error) => notifyError(error),
              })
            }
          />
        </>
      ) : null}
    </SectionCard>
  );
}

function WindowFacts({ state }: { state: MachineWindow }) {
  const facts: [string, ReactNode][] = [
    ['Window', state.window ? inWords(state.window) : 'None: restarts may come at any time'],
    ['Set On', state.fromGroup ? `Group ${state.fromGroup.name}` : state.window ? 'This machine' : '—'],
    ['Now', state.window ? (state.openNow ? 'Open' : 'Closed') : 'Always open'],
    ['Treatment', state.busySince ? `Running since ${formatDateTime(state.busySince)}` : 'None running'],
  ];
  return (
    <dl className="row mb-0">
      {facts.map(([label, value]) => (
        <div key={label} className="col-sm-6 col-lg-3 mb-3">
          <dt className="small text-body-secondary fw-semibold">{label}</dt>
          <dd className="mb-0 text-break">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const windowFields = ['start', 'end', 'timeZone'] as const;
/** The field a 400 names (`window.start`), when it is one of the form's. */
const fieldOfError = (error: ApiError) => {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  const field = typeof path === 'string' ? path.replace(/^window\./, '') : undefined;
  return error.status === 400 && windowFields.includes(field as never)
    ? (field as (typeof windowFields)[number])
    : undefined;
};
const blank: MaintenanceWindow = { start: '02:00', end: '04:00', timeZone: ownZone };
const valuesOf = (w: MaintenanceWindow) => w;

function WindowFormModal({
  machineNumber,
  current,
  show,
  onClose,
  onSave,
  pending,
}: {
  machineNumber: string;
  current: MaintenanceWindow | null;
  show: boolean;
  onClose: () => void;
  onSave: (window: MaintenanceWindow) => Promise<{ msg?: string }>;
  pending: boolean;
}) {
  const form = useFormModal({
    show,
    resolver: zodResolver(maintenanceWindowSchema),
    blank,
    record: current,
    valuesOf,
  });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={`Maintenance window of ${machineNumber}`}
      submitLabel="Save"
      pending={pending}
      onSave={onSave}
      saved={maintenanceWindowMessages.saved}
      fieldOfError={fieldOfError}
    >
      <p className="small text-body-secondary">
        Restarts and re-enrolments reach the machine only in this window, every day, and never during a
        treatment. A safety hold never waits.
      </p>
      {form.field('start', 'From', { type: 'time' })}
      {form.field('end', 'Until', { type: 'time' })}
      {form.select(
        'timeZone',
        "Machine's time zone",
        zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        )),
      )}
    </FormModal>
  );
}
