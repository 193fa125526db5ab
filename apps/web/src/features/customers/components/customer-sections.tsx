import type { ReactNode } from 'react';
import type { CustomerActivity, CustomerMachine, CustomerSubscription } from '@app/contract/customers';
import { deviceStatusLabels, licenceText, type DeviceStatus } from '@app/contract/devices';
import { planTypeLabels, type PlanType } from '@app/contract/checkout';
import { subscriptionStatusLabel } from '@app/contract/subscriptions';
import { activityColumns } from '#web/components/activity-columns.tsx';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { Link } from '#web/components/link.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DETAIL_PAGE_SIZES } from '#web/components/pager.tsx';
import { formatDate, formatDateTime, orNA } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';
import { useListState } from '#web/lib/use-list-state.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useCustomerPiece, type CustomerPiece } from '../api/get-customer.ts';

type Paged<K extends string, T> = { [P in K]: T[] } & { total: number; totalPages: number };

const machineColumns: DataTableColumn<CustomerMachine>[] = [
  {
    key: 'machineNumber',
    header: 'Machine Number',
    className: 'text-nowrap',
    render: (m) => <Link to={paths.deviceDetails.href({ id: m._id })}>{m.machineNumber}</Link>,
  },
  { key: 'serialNumber', header: 'Serial Number', className: 'text-nowrap' },
  { key: 'location', header: 'Location', truncate: '12em' },
  { key: 'status', header: 'Status', render: (m) => orNA(deviceStatusLabels[m.status as DeviceStatus]) },
  {
    key: 'lastSeenAt',
    header: 'Last Seen',
    className: 'text-nowrap',
    render: (m) => (m.lastSeenAt ? formatDateTime(m.lastSeenAt) : 'Never'),
  },
  { key: 'licence', header: 'Licence', render: (m) => licenceText(m, (iso) => formatDate(iso)) },
  {
    key: 'assignedFrom',
    header: 'Held since',
    className: 'text-nowrap',
    render: (m) => formatDateTime(m.assignedFrom),
  },
];

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const subscriptionColumns: DataTableColumn<CustomerSubscription>[] = [
  {
    key: 'createdAt',
    header: 'Created',
    className: 'text-nowrap',
    render: (s) => formatDateTime(s.createdAt),
  },
  { key: 'machineSerialNumber', header: 'Machine Serial No.', className: 'text-nowrap' },
  { key: 'fullName', header: 'Name', truncate: '10em' },
  {
    key: 'amount',
    header: 'Amount ($)',
    className: 'text-nowrap',
    render: (s) => `$${dollars.format(s.amount)}`,
  },
  {
    key: 'plan',
    header: 'Plan',
    render: (s) => (s.isRecurring ? (planTypeLabels[s.planType as PlanType] ?? 'Recurring') : 'One Time'),
  },
  { key: 'status', header: 'Status', render: (s) => subscriptionStatusLabel(s.status) },
  {
    key: 'paidThrough',
    header: 'Paid Through',
    className: 'text-nowrap',
    render: (s) => formatDate(s.paidThrough),
  },
];

/** One paged piece of the customer's page in its card, with its own loading, empty and error states. */
function PieceCard<K extends string, T>({
  customerId,
  piece,
  listKey,
  title,
  emptyText,
  columns,
  rowKey,
  actions,
}: {
  customerId: string;
  piece: CustomerPiece;
  listKey: K;
  title: string;
  emptyText: string;
  columns: DataTableColumn<T>[];
  rowKey: (row: T) => string;
  actions?: (row: T) => ReactNode;
}) {
  const list = useListState();
  const query = useCustomerPiece<Paged<K, T>>(customerId, piece, { page: list.page, limit: list.limit });
  return (
    <SectionCard title={title}>
      {query.isError && !query.data ? (
        <LoadError
          error={query.error}
          fallback={`The ${title.toLowerCase()} could not be loaded.`}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <TableWithPager
          label={title}
          columns={columns}
          rows={query.data?.[listKey]}
          getRowKey={rowKey}
          emptyText={emptyText}
          isLoading={query.isPending}
          list={list}
          totalPages={query.data?.totalPages}
          total={query.data?.total}
          pageSizeOptions={DETAIL_PAGE_SIZES}
          pagerLabel={`${title} pages`}
          actions={actions}
          actionsHeader={actions ? 'Action' : undefined}
        />
      )}
    </SectionCard>
  );
}

/** The machines the customer holds now: status, last seen, licence, each opening Device Details. */
export function CustomerMachinesCard({ customerId }: { customerId: string }) {
  return (
    <PieceCard
      customerId={customerId}
      piece="machines"
      listKey="machines"
      title="Machines"
      emptyText="This customer holds no machine now."
      columns={machineColumns}
      rowKey={(m: CustomerMachine) => m._id}
    />
  );
}

/** The customer's subscriptions, each opening its page for a role that may see subscriptions. */
export function CustomerSubscriptionsCard({ customerId }: { customerId: string }) {
  const mayView = useCan('subscriptions.view');
  return (
    <PieceCard
      customerId={customerId}
      piece="subscriptions"
      listKey="subscriptions"
      title="Subscriptions"
      emptyText="No subscription is for this customer yet."
      columns={subscriptionColumns}
      rowKey={(s: CustomerSubscription) => s._id}
      actions={
        mayView
          ? (s) => (
              <Link
                to={paths.viewSubscription.href({ id: s._id })}
                aria-label={`View subscription of ${formatDateTime(s.createdAt)}`}
              >
                View
              </Link>
            )
          : undefined
      }
    />
  );
}

/** The audit trail's rows about the customer (console writes, its machines' and users' rows), newest first. */
export function CustomerActivityCard({ customerId }: { customerId: string }) {
  return (
    <PieceCard
      customerId={customerId}
      piece="activity"
      listKey="activity"
      title="Activity"
      emptyText="No activity recorded for this customer yet."
      columns={activityColumns}
      rowKey={(a: CustomerActivity) => a._id}
    />
  );
}
