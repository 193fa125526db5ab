import { useState } from 'react';
import { Link } from '#web/components/link.tsx';
import { paths } from '#web/lib/paths.ts';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { SectionCard } from '#web/components/section-card.tsx';
import { errorMessage } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useUserMachines, type AssignedMachine } from '../api/get-user-machines.ts';
import { MachinesPickerModal } from './machines-picker-modal.tsx';

const columns: DataTableColumn<AssignedMachine>[] = [
  {
    key: 'machineNumber',
    header: 'Machine Number',
    className: 'text-nowrap',
    render: (machine) => (
      <Link to={paths.deviceDetails.href({ id: machine.deviceId })}>{machine.machineNumber}</Link>
    ),
  },
  { key: 'serialNumber', header: 'Serial Number', className: 'text-nowrap' },
  { key: 'assignedAt', header: 'Assigned', render: (machine) => formatDateTime(machine.assignedAt) },
];

/**
 * A technician's machines (issue 13): a user of an app role signs in on the machines assigned here
 * and registers that machine's doctors.
 */
export function TechnicianMachinesCard({ userId, userName }: { userId: string; userName: string }) {
  const machines = useUserMachines(userId);
  const [editing, setEditing] = useState(false);
  // The picker searches the device list, which needs devices.view (decision 047).
  const mayPick = useCan('devices.view');

  return (
    <SectionCard title="Machines">
      {machines.isError ? (
        <p>{errorMessage(machines.error, 'The machines could not be loaded.')}</p>
      ) : (
        <DataTable
          label={`Machines of ${userName}`}
          columns={columns}
          rows={machines.data}
          getRowKey={(machine) => machine.deviceId}
          emptyText="No machines assigned."
          isLoading={machines.isPending}
        />
      )}
      {mayPick ? (
        <button
          type="button"
          className="btn btn-outline-primary mt-3"
          onClick={() => setEditing(true)}
          disabled={!machines.isSuccess}
        >
          Edit machines
        </button>
      ) : null}
      {editing && machines.data ? (
        <MachinesPickerModal
          userId={userId}
          userName={userName}
          assigned={machines.data}
          onClose={() => setEditing(false)}
        />
      ) : null}
    </SectionCard>
  );
}
