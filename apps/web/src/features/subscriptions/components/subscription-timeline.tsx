import {
  cancelWhenLabels,
  type CancelWhen,
  type SubscriptionEvent,
} from '@app/contract/subscription-operations';
import { subscriptionEventLabels } from '@app/contract/subscription-history';
import { SignatureLine } from '#web/components/signature-line.tsx';
import { formatDate, formatDateTime } from '#web/lib/format.ts';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

type Value = SubscriptionEvent['detail'][string];

/** How each detail an event carries reads (contract: SubscriptionEventDetail); others as they are. */
const details: Record<string, { label: string; show?: (value: Value) => string }> = {
  reason: { label: 'Reason' },
  amount: { label: 'Amount', show: (v) => (typeof v === 'number' ? dollars.format(v) : String(v)) },
  paidThrough: { label: 'Paid through', show: (v) => formatDate(String(v)) },
  until: { label: 'Until', show: (v) => formatDate(String(v)) },
  when: { label: 'When', show: (v) => cancelWhenLabels[v as CancelWhen] ?? String(v) },
  message: { label: 'Message' },
  outcome: { label: 'Outcome' },
  to: { label: 'To' },
  cardLast4: { label: 'Card', show: (v) => `ending ${String(v)}` },
};

/** Kept for the record but shown otherwise: the signature's id (its line says who signed). */
const unshown = new Set(['signatureId']);

function Details({ detail }: { detail: SubscriptionEvent['detail'] }) {
  const shown = Object.entries(detail).filter(([k, v]) => v !== null && v !== '' && !unshown.has(k));
  if (shown.length === 0) return null;
  return (
    <dl className="mb-0 small d-flex flex-wrap column-gap-3">
      {shown.map(([key, value]) => {
        const known = details[key];
        return (
          <div key={key} className="d-flex gap-1">
            <dt className="fw-semibold">{known?.label ?? key}:</dt>
            <dd className="mb-0 text-break">{known?.show ? known.show(value) : String(value)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * Everything that happened to the subscription, newest first: from the customer, the payment
 * provider, the clock and the admins (who are named); a signed event (an extension) with its
 * signature (decision 083).
 */
export function SubscriptionTimeline({ events }: { events: readonly SubscriptionEvent[] }) {
  if (events.length === 0) return <p className="mb-0 text-body-secondary">Nothing has happened yet.</p>;
  return (
    <ol className="list-unstyled mb-0 subscription-timeline" aria-label="Timeline, newest first">
      {events.map((event) => (
        <li key={event._id} className="border-start border-2 ps-3 pb-3">
          <div className="d-flex flex-wrap align-items-baseline column-gap-2">
            <span className="fw-semibold">{subscriptionEventLabels[event.kind]}</span>
            <time dateTime={event.at} className="small text-body-secondary">
              {formatDateTime(event.at)}
            </time>
            {event.actor ? <span className="small text-body-secondary">by {event.actor}</span> : null}
          </div>
          <Details detail={event.detail} />
          {event.signature ? <SignatureLine signature={event.signature} /> : null}
        </li>
      ))}
    </ol>
  );
}
