import { useState, type ReactNode } from 'react';
import type { Device } from '@app/contract/devices';
import {
  maintenanceWindowMessages,
  type MachineWindow,
  type MaintenanceWindow,
} from '@app/contract/maintenance-windows';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useMaintenanceWindow, useSetMaintenanceWindow } from '../api/maintenance-window.ts';
import { WindowFormModal } from '#web/components/window-form-modal.tsx';

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
            title={`Maintenance window of ${device.machineNumber}`}
            intro="Restarts and re-enrolments reach the machine only in this window, every day, and never during a treatment. A safety hold never waits."
            zoneLabel="Machine's time zone"
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
