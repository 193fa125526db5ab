import { useState } from 'react';
import type { BulkResult } from '@app/contract/bulk-actions';
import { bulkSummary } from '@app/contract/bulk-texts';
import { LazyBulkResultsModal } from '#web/components/lazy-dialogs.tsx';
import type { DeviceBulkSelection } from '../api/bulk-device-status.ts';
import { useBulkAssign } from '../api/machine-assignment.ts';
import { AssignCustomerModal } from './assign-customer-modal.tsx';

const machines = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'machine' : 'machines'}`;
const action = 'Assign to customer';

/**
 * Device Management's bulk "Assign to customer" (issue 39 item 2): one customer, from one date, for the
 * machines picked or all matching; then the answer machine by machine (decision 055), a machine
 * refused with the server's reason (already that customer's, a date before its current period).
 */
export function BulkAssignCustomer({
  selection,
  count,
  show,
  onClose,
}: {
  selection: DeviceBulkSelection;
  count: number;
  show: boolean;
  onClose: () => void;
}) {
  const assign = useBulkAssign();
  const [result, setResult] = useState<BulkResult | null>(null);
  return (
    <>
      <AssignCustomerModal
        show={show}
        onClose={onClose}
        title={`Assign ${machines(count)} to a customer`}
        submitLabel="Assign"
        save={async (body) => {
          const response = await assign.mutateAsync({ selection, body });
          setResult(response.data);
          return { msg: bulkSummary(response.data) };
        }}
        pending={assign.isPending}
        saved="Machines assigned"
      />
      <LazyBulkResultsModal
        action={result ? action : null}
        result={result}
        nameOf={(row) => row.machineNumber ?? row._id}
        onClose={() => setResult(null)}
      />
    </>
  );
}
