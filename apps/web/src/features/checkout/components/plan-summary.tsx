import { checkoutMessages, checkoutTexts, subscriptionStatuses } from '@app/contract/checkout';
import type { CheckoutSummary } from '@app/contract/subscriptions';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { formatStartDate } from '../format-start-date.ts';
import { formatDollars, PlanBadge } from './plan-badge.tsx';

/** The first step: who and what is being paid; Subscribe only while the link can still be paid. */
export function PlanSummary({
  summary,
  onSubscribe,
  onIntent,
}: {
  summary: CheckoutSummary;
  onSubscribe: () => void;
  /** The customer is about to subscribe (pointer over or focus on the button): fetch the payment step. */
  onIntent?: () => void;
}) {
  const closed =
    summary.status === subscriptionStatuses.complete
      ? checkoutMessages.paid
      : summary.status === subscriptionStatuses.expired
        ? checkoutMessages.expired
        : null;
  return (
    <CenteredCard title={`${checkoutTexts.greeting}, ${summary.fullName}`} className="checkout-card">
      <div className="text-center mb-4">
        <PlanBadge summary={summary} />
      </div>
      <dl className="row mb-4 checkout-facts">
        <dt className="col-6">{checkoutTexts.email}</dt>
        <dd className="col-6 text-end text-break">{summary.email}</dd>
        <dt className="col-6">{checkoutTexts.machineSerialNumber}</dt>
        <dd className="col-6 text-end text-break">{summary.machineSerialNumber}</dd>
        <dt className="col-6">{checkoutTexts.amount}</dt>
        <dd className="col-6 text-end fw-semibold">{formatDollars(summary.amount)}</dd>
        <dt className="col-6">{checkoutTexts.startDate}</dt>
        <dd className="col-6 text-end">{formatStartDate(summary.createdAt)}</dd>
      </dl>
      {closed ? (
        <div className="alert alert-info mb-0" role="status">
          {closed}
        </div>
      ) : (
        <button
          type="button"
          className="btn btn-primary w-100"
          onClick={onSubscribe}
          onPointerEnter={onIntent}
          onFocus={onIntent}
        >
          {checkoutTexts.subscribe}
        </button>
      )}
    </CenteredCard>
  );
}
