import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { customerMessages, type Customer } from '@app/contract/customers';
import { customerPaths } from '@app/contract/customers-texts';
import { AssignmentHistory } from '#web/components/assignment-history.tsx';
import { BackButton } from '#web/components/back-button.tsx';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { DetailsCard, SectionCard } from '#web/components/details-card.tsx';
import { PencilIcon, TrashIcon } from '#web/components/icons.tsx';
import { InviteClinicUserButton } from '#web/components/invite-clinic-user-button.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';
import { useConfirmDelete } from '#web/lib/use-confirm-delete.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useDeleteCustomer } from '../api/delete-customer.ts';
import { useCustomer } from '../api/get-customer.ts';
import { CustomerFormModal } from '../components/customer-form-modal.tsx';
import {
  CustomerActivityCard,
  CustomerMachinesCard,
  CustomerSubscriptionsCard,
} from '../components/customer-sections.tsx';
import { CustomerUsersCard } from '../components/customer-users-card.tsx';

const detailsOf = (c: Customer) => [
  { label: 'Name', value: c.name },
  { label: 'Country', value: c.country },
  { label: 'Address', value: c.address },
  { label: 'Billing email', value: c.billingEmail },
  { label: 'Tax id', value: c.taxId },
  { label: 'Machines held', value: c.machineCount.toLocaleString('en-US') },
  { label: 'Two-step sign-in for clinic users', value: c.requireMfa ? 'Required' : 'Optional' },
  { label: 'Created', value: formatDateTime(c.createdAt) },
  { label: 'Notes', value: c.notes ? <span style={{ whiteSpace: 'pre-wrap' }}>{c.notes}</span> : null },
];

/**
 * /admin/customers/:id (issue 39 items 1 and 2): the clinic's details, with Edit and Delete for
 * customers.manage (a delete the server refuses, as for a customer holding machines, says why), its
 * machines now, its subscriptions, who held what when, its activity and its users.
 */
export function CustomerPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data: customer, isPending } = useCustomer(id);
  const mayManage = useCan('customers.manage');
  const [editing, setEditing] = useState(false);
  const deleting = useConfirmDelete<Customer>(useDeleteCustomer(), customerMessages.deleted, () =>
    navigate(paths.customers.href()),
  );

  const actions =
    customer && mayManage ? (
      <>
        <button
          type="button"
          className="btn btn-outline-primary d-inline-flex align-items-center gap-2"
          onClick={() => setEditing(true)}
        >
          <PencilIcon size={16} />
          Edit
        </button>
        <button
          type="button"
          className="btn btn-danger d-inline-flex align-items-center gap-2"
          onClick={() => deleting.ask(customer)}
        >
          <TrashIcon size={16} />
          Delete
        </button>
      </>
    ) : null;

  return (
    <>
      <PageHeader
        title={customer?.name ?? 'Customer Details'}
        actions={
          <>
            {actions}
            <BackButton to={paths.customers.href()} />
          </>
        }
      />
      <DetailsCard
        title="Customer Details"
        items={customer ? detailsOf(customer) : []}
        isLoading={isPending}
        missing={!isPending && !customer}
        missingText={customerMessages.notFound}
      />
      {customer ? (
        <>
          <CustomerMachinesCard customerId={customer._id} />
          <CustomerSubscriptionsCard customerId={customer._id} />
          <SectionCard title="Assignment history">
            <AssignmentHistory
              path={customerPaths.assignments(encodeURIComponent(customer._id))}
              show="machine"
              label="Assignment history"
              emptyText="This customer has held no machine yet."
            />
          </SectionCard>
          <CustomerActivityCard customerId={customer._id} />
          <CustomerUsersCard
            customerId={customer._id}
            actions={mayManage ? <InviteClinicUserButton customerId={customer._id} /> : undefined}
          />
        </>
      ) : null}
      {mayManage ? (
        <>
          <CustomerFormModal show={editing} customer={customer} onClose={() => setEditing(false)} />
          <ConfirmModal {...deleting.modal} />
        </>
      ) : null}
    </>
  );
}
