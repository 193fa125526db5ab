import { planTypeLabels, type PlanType } from '@app/contract/checkout';
import { subscriptionStatusLabels, type Device, type SubscriptionSummary } from '@app/contract/devices';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { Link } from '#web/components/link.tsx';
import { formatDate, formatDateTime, NA } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';
import { useCan } from '#web/lib/use-session.ts';

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const plan = (s: SubscriptionSummary) =>
  s.isRecurring ? (planTypeLabels[s.planType as PlanType] ?? 'Recurring') : 'One Time';

const columns: DataTableColumn<SubscriptionSummary>[] = [
  {
    key: 'createdAt',
    header: 'Created',
    className: 'text-nowrap',
    render: (s) => formatDateTime(s.createdAt),
  },
  { key: 'status', header: 'Status', render: (s) => subscriptionStatusLabels[s.status] ?? NA },
  { key: 'plan', header: 'Plan', render: plan },
  { key: 'amount', header: 'Amount', render: (s) => `$${dollars.format(s.amount)}` },
  {
    key: 'paidThrough',
    header: 'Paid Through',
    className: 'text-nowrap',
    render: (s) => (s.paidThrough ? formatDate(s.paidThrough) : NA),
  },
];

/**
 * Device Details "Subscriptions" (issue 34 item 1): every subscription of the machine, newest first,
 * each opening its Subscription Details for a role that may see subscriptions.
 */
export function DeviceSubscriptionsCard({ device }: { device: Device }) {
  const mayView = useCan('subscriptions.view');
  return (
    <SectionCard title="Subscriptions">
      <DataTable
        label={`Subscriptions of machine ${device.machineNumber}`}
        columns={columns}
        rows={device.subscriptionDetails}
        getRowKey={(s) => s._id}
        emptyText="No subscription names this machine yet."
        actionsHeader="Action"
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
    </SectionCard>
  );
}
