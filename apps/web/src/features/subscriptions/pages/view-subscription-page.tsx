import { useState } from 'react';
import { useParams } from 'react-router';
import { licenceStateLabels } from '@app/contract/licences';
import { recordHistoryPaths } from '@app/contract/record-history';
import {
  subscriptionOperationMessages,
  type SubscriptionDetail,
  type SubscriptionPayment,
} from '@app/contract/subscription-operations';
import { demoPaymentLabel, oneTimeLabel, planTypeLabels } from '@app/contract/subscriptions';
import { BackButton } from '#web/components/back-button.tsx';
import { Breadcrumbs } from '#web/components/breadcrumbs.tsx';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { DetailsCard, SectionCard } from '#web/components/details-card.tsx';
import { Link } from '#web/components/link.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { RecordHistorySection } from '#web/components/record-history.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { formatDate, formatDateTime } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useSubscription } from '../api/get-subscription.ts';
import { OperationDialogs } from '../components/operation-dialogs.tsx';
import type { OperationTarget } from '../components/operation-texts.ts';
import { PaymentReceipt } from '../components/payment-receipt.tsx';
import { SubscriptionStatusBadge } from '../components/subscription-status-badge.tsx';
import { SubscriptionTimeline } from '../components/subscription-timeline.tsx';
import { useAllowedOperations } from '../components/use-allowed-operations.ts';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const providerLabels = { demo: 'Demo', stripe: 'Stripe' } as const;

function subscriptionItems({ subscription: s, plan }: SubscriptionDetail) {
  const collection = !s.isRecurring
    ? null
    : plan.cancelledAt
      ? `Ended ${formatDateTime(plan.cancelledAt)}`
      : plan.cancelAtPeriodEnd
        ? 'Ends at the end of the paid period'
        : plan.collectionPaused
          ? 'Paused'
          : 'Renews automatically';
  return [
    { label: 'Name', value: s.fullName },
    { label: 'Email', value: s.email },
    // Ours (issue 39): the customer it is for.
    {
      label: 'Customer',
      value: s.customerId ? (
        <Link to={paths.viewCustomer.href({ id: s.customerId })}>{s.customerName ?? s.customerId}</Link>
      ) : null,
    },
    { label: 'Amount', value: dollars.format(s.amount) },
    { label: 'Payment Type', value: s.isRecurring && s.planType ? planTypeLabels[s.planType] : oneTimeLabel },
    {
      label: 'Status',
      value: (
        <span className="d-inline-flex gap-1">
          <SubscriptionStatusBadge status={s.status} />
          {s.demoPayment ? <StatusBadge label={demoPaymentLabel} tone="info" /> : null}
        </span>
      ),
    },
    { label: 'Link Sent Time', value: formatDateTime(s.createdAt) },
    { label: 'Link Expiry Time', value: formatDateTime(s.expiredAt) },
    { label: 'Paid At', value: s.paidAt ? formatDateTime(s.paidAt) : null },
    { label: 'Paid Through', value: plan.paidThrough ? formatDate(plan.paidThrough) : null },
    { label: 'Grace Until', value: plan.graceUntil ? formatDate(plan.graceUntil) : null },
    ...(collection ? [{ label: 'Plan', value: collection }] : []),
    ...(plan.revokedAt ? [{ label: 'Link Revoked', value: formatDateTime(plan.revokedAt) }] : []),
    ...(plan.renewalFailedAt
      ? [
          {
            label: 'Renewal Failed',
            value: `${formatDateTime(plan.renewalFailedAt)}${plan.lastPaymentError ? `: ${plan.lastPaymentError}` : ''}`,
          },
        ]
      : []),
    { label: 'Card on File', value: plan.cardLast4 ? `Ending ${plan.cardLast4}` : null },
    { label: 'Payment Provider', value: plan.provider ? providerLabels[plan.provider] : null },
  ];
}

function MachineCard({ detail }: { detail: SubscriptionDetail }) {
  const maySeeMachines = useCan('devices.view');
  const machine = detail.machine;
  if (!machine)
    return (
      <DetailsCard
        title="Machine"
        items={[{ label: 'Machine Serial No.', value: detail.subscription.machineSerialNumber }]}
      />
    );
  return (
    <DetailsCard
      title="Machine"
      items={[
        {
          label: 'Machine Number',
          value: maySeeMachines ? (
            <Link to={paths.deviceDetails.href({ id: machine._id })} state={{ deviceId: machine._id }}>
              {machine.machineNumber}
            </Link>
          ) : (
            machine.machineNumber
          ),
        },
        { label: 'Machine Serial No.', value: machine.serialNumber },
        { label: 'Licence', value: licenceStateLabels[machine.licenceState] },
      ]}
    />
  );
}

function PaymentsTable({ detail }: { detail: SubscriptionDetail }) {
  const id = detail.subscription._id;
  const columns: DataTableColumn<SubscriptionPayment>[] = [
    { key: 'paidAt', header: 'Paid At', render: (p) => formatDateTime(p.paidAt) },
    { key: 'amount', header: 'Amount', render: (p) => dollars.format(p.amount) },
    { key: 'periodEnd', header: 'Period End', render: (p) => (p.periodEnd ? formatDate(p.periodEnd) : null) },
    { key: 'provider', header: 'Provider', render: (p) => providerLabels[p.provider] },
    { key: 'receipt', header: 'Receipt', render: (p) => <PaymentReceipt subscriptionId={id} payment={p} /> },
  ];
  return (
    <DataTable
      label="Payments"
      columns={columns}
      rows={detail.payments}
      getRowKey={(p) => p._id}
      emptyText="No payment yet."
      srNoHeader="Sr No."
    />
  );
}

/** The operations the admin may run on it now, as buttons (the list's row menu offers the same). */
function OperationButtons({
  detail,
  onChoose,
}: {
  detail: SubscriptionDetail;
  onChoose: (target: OperationTarget) => void;
}) {
  const allowed = useAllowedOperations(detail);
  if (allowed.length === 0) return null;
  return (
    <div className="d-flex flex-wrap gap-2" role="group" aria-label="Operations">
      {allowed.map((op) => (
        <button
          key={op.name}
          type="button"
          className={`btn btn-sm ${op.danger ? 'btn-outline-danger' : 'btn-outline-primary'}`}
          onClick={() => onChoose({ name: op.name, detail })}
        >
          {op.label}
        </button>
      ))}
    </div>
  );
}

/**
 * /admin/view-subscription/:id (issue 34 item 5, docs/product.md §2.12): the subscription, its
 * machine, its payments with their receipts and the timeline of everything that happened to it, and
 * the operations the admin's role and the subscription's state allow.
 */
export function ViewSubscriptionPage() {
  const { id = '' } = useParams();
  const { data: detail, isPending, error } = useSubscription(id);
  const [target, setTarget] = useState<OperationTarget | null>(null);
  const missing = !isPending && !detail;
  const missingText =
    error instanceof ApiError && error.status !== 404 && error.msg
      ? error.msg
      : subscriptionOperationMessages.notFound;

  return (
    <>
      <PageHeader title="Subscription Details" actions={<BackButton to={paths.subscriptions.href()} />}>
        <Breadcrumbs
          items={[
            { label: 'Subscription Management', to: paths.subscriptions.href() },
            { label: detail?.subscription.fullName ?? 'Subscription' },
          ]}
        />
      </PageHeader>
      <DetailsCard
        title="Subscription"
        items={detail ? subscriptionItems(detail) : []}
        isLoading={isPending}
        missing={missing}
        missingText={missingText}
        actions={detail ? <OperationButtons detail={detail} onChoose={setTarget} /> : null}
      />
      {detail ? (
        <>
          <MachineCard detail={detail} />
          <SectionCard title="Payments">
            <PaymentsTable detail={detail} />
          </SectionCard>
          <SectionCard title="Timeline">
            <SubscriptionTimeline events={detail.timeline} />
          </SectionCard>
          <RecordHistorySection kind="subscription" path={recordHistoryPaths.subscription(id)} />
          <OperationDialogs target={target} onClose={() => setTarget(null)} />
        </>
      ) : null}
    </>
  );
}
