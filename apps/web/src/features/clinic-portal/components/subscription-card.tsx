import { useState } from 'react';
import type { ClinicSubscription } from '@app/contract/clinic-portal';
import { clinicPortalTexts as texts } from '@app/contract/clinic-portal-texts';
import { oneTimeLabel, planTypeLabels, subscriptionStatusLabel } from '@app/contract/subscriptions';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { SectionCard } from '#web/components/section-card.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { formatDate, formatDateTime, NA } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { getCardUpdateUrl, getReceiptUrl, useRetryPayment } from '../api/billing-actions.ts';
import { DemoCardModal } from './demo-card-modal.tsx';

type Payment = ClinicSubscription['payments'][number];
const money = (amount: number) => `$${amount.toFixed(2)}`;
const statusTone = { 1: 'warning', 2: 'success', 3: 'secondary', 4: 'danger' } as const;

/** Where the browser goes: the provider's page (a function, so tests can watch it). */
export const leavePortal = { to: (url: string) => window.location.assign(url) };

/** One subscription of the clinic: its state, what the clinic may do about it, and its payments. */
export function SubscriptionCard({ subscription: s }: { subscription: ClinicSubscription }) {
  const retry = useRetryPayment();
  const [opening, setOpening] = useState<string | null>(null);
  const [demoCard, setDemoCard] = useState(false);
  const plan = s.isRecurring && s.planType ? planTypeLabels[s.planType] : oneTimeLabel;

  const openReceipt = async (payment: Payment) => {
    setOpening(payment._id);
    try {
      window.open(await getReceiptUrl(s._id, payment._id), '_blank', 'noopener');
    } catch (error) {
      notifyError(error, 'The receipt could not be opened.');
    } finally {
      setOpening(null);
    }
  };
  const updateCard = async () => {
    setOpening('card');
    try {
      const url = await getCardUpdateUrl(s._id);
      // Stripe's Billing Portal, or (the demo provider) the portal's own card form.
      if (url) return leavePortal.to(url);
      setDemoCard(true);
    } catch (error) {
      notifyError(error, 'The card page could not be opened.');
    }
    setOpening(null);
  };
  const payNow = () =>
    retry.mutate(s._id, {
      onSuccess: (res) => (res.data.paid ? notify.success(res.msg) : notify.error(res.msg)),
      onError: (error) => notifyError(error),
    });

  const columns: DataTableColumn<Payment>[] = [
    { key: 'paidAt', header: 'Paid', render: (p) => formatDateTime(p.paidAt) },
    { key: 'amount', header: 'Amount', className: 'text-end', render: (p) => money(p.amount) },
    { key: 'periodEnd', header: 'Paid through', render: (p) => (p.periodEnd ? formatDate(p.periodEnd) : NA) },
  ];

  return (
    <SectionCard title={`${plan} plan for machine ${s.machineSerialNumber}`}>
      <dl className="row mb-3">
        <dt className="col-sm-3">Status</dt>
        <dd className="col-sm-9">
          <StatusBadge
            label={subscriptionStatusLabel(s.status)}
            tone={statusTone[s.status as keyof typeof statusTone] ?? 'secondary'}
          />
          {s.renewalFailedAt ? (
            <span className="ms-2 text-danger">
              Renewal failed: {s.lastPaymentError ?? 'payment refused'}
            </span>
          ) : null}
        </dd>
        <dt className="col-sm-3">Amount</dt>
        <dd className="col-sm-9">{money(s.amount)}</dd>
        <dt className="col-sm-3">Paid through</dt>
        <dd className="col-sm-9">{s.paidThrough ? formatDate(s.paidThrough) : NA}</dd>
        {s.cardLast4 ? (
          <>
            <dt className="col-sm-3">Card</dt>
            <dd className="col-sm-9">•••• {s.cardLast4}</dd>
          </>
        ) : null}
      </dl>
      <div className="d-flex flex-wrap gap-2 mb-3">
        {s.payUrl ? (
          <a className="btn btn-primary" href={s.payUrl}>
            {texts.pay} {money(s.amount)}
          </a>
        ) : null}
        {s.canRetry ? (
          <button type="button" className="btn btn-primary" disabled={retry.isPending} onClick={payNow}>
            {retry.isPending ? 'Paying...' : texts.retry}
          </button>
        ) : null}
        {s.canUpdateCard ? (
          <button
            type="button"
            className="btn btn-outline-primary"
            disabled={opening === 'card'}
            onClick={() => void updateCard()}
          >
            {opening === 'card' ? 'Opening...' : texts.updateCard}
          </button>
        ) : null}
      </div>
      <DataTable
        label={`Payments of the plan for machine ${s.machineSerialNumber}`}
        columns={columns}
        rows={s.payments}
        getRowKey={(p) => p._id}
        emptyText={texts.paymentsEmpty}
        actionsHeader={texts.receipt}
        actions={(p) => (
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            disabled={opening === p._id}
            aria-label={`Receipt of the payment of ${formatDateTime(p.paidAt)}`}
            onClick={() => void openReceipt(p)}
          >
            {texts.receipt}
          </button>
        )}
      />
      <DemoCardModal subscriptionId={demoCard ? s._id : null} onClose={() => setDemoCard(false)} />
    </SectionCard>
  );
}
