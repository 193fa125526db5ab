import { useState } from 'react';
import { customerMessages, customerPaths } from '@app/contract/customers-texts';
import type { Device } from '@app/contract/devices';
import { AssignmentHistory } from '#web/components/assignment-history.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { Link } from '#web/components/link.tsx';
import { paths } from '#web/lib/paths.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useAssignMachine, useReturnMachine } from '../api/machine-assignment.ts';
import { AssignCustomerModal, ReturnMachineModal } from './assign-customer-modal.tsx';

/**
 * Device Details "Customer" (issue 39 item 2): who holds the machine now, and who held it when. With
 * customers.manage: assign it (or move it to another customer) from a date, or return it to the supplier.
 */
export function DeviceCustomerCard({ device }: { device: Device }) {
  const mayManage = useCan('customers.manage');
  const [open, setOpen] = useState<'assign' | 'return' | null>(null);
  const assign = useAssignMachine(device._id);
  const giveBack = useReturnMachine(device._id);
  const holder = device.customerId
    ? { id: device.customerId, name: device.customerName ?? device.customerId }
    : null;
  const close = () => setOpen(null);

  const actions = mayManage ? (
    <div className="d-flex flex-wrap gap-2">
      <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setOpen('assign')}>
        {holder ? 'Move to another customer' : 'Assign to customer'}
      </button>
      {holder ? (
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setOpen('return')}>
          Return to supplier
        </button>
      ) : null}
    </div>
  ) : null;

  return (
    <SectionCard title="Customer" actions={actions}>
      <p>
        {holder ? (
          <>
            Held by <Link to={paths.viewCustomer.href({ id: holder.id })}>{holder.name}</Link>.
          </>
        ) : (
          'At the supplier: no customer holds this machine.'
        )}
      </p>
      <h3 className="h6">Ownership history</h3>
      <AssignmentHistory
        path={customerPaths.machineAssignments(encodeURIComponent(device._id))}
        show="customer"
        label="Ownership history"
        emptyText="No customer has held this machine yet."
      />
      {mayManage ? (
        <>
          <AssignCustomerModal
            show={open === 'assign'}
            onClose={close}
            title={
              holder
                ? `Move ${device.machineNumber} to another customer`
                : `Assign ${device.machineNumber} to a customer`
            }
            submitLabel={holder ? 'Move' : 'Assign'}
            exclude={holder?.id}
            intro={
              holder ? (
                <p>
                  {holder.name} holds it until the date below; its records made until then stay with{' '}
                  {holder.name}.
                </p>
              ) : null
            }
            save={(body) => assign.mutateAsync(body)}
            pending={assign.isPending}
            saved={customerMessages.assigned}
          />
          {holder ? (
            <ReturnMachineModal
              show={open === 'return'}
              onClose={close}
              machineNumber={device.machineNumber}
              customerName={holder.name}
              save={(body) => giveBack.mutateAsync(body)}
              pending={giveBack.isPending}
            />
          ) : null}
        </>
      ) : null}
    </SectionCard>
  );
}
