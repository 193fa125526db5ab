import { useEffect, useRef, useState } from 'react';
import { subscriptionOperationPaths, type SubscriptionPayment } from '@app/contract/subscription-operations';
import { notifyError } from '#web/lib/api-client.ts';
import { formatDate } from '#web/lib/format.ts';
import { getReceiptUrl } from '../api/get-receipt.ts';

/**
 * Where a payment's receipt is, when known without asking: Stripe's hosted receipt or invoice
 * recorded with the payment, or the demo provider's own page at the payment's unguessable id.
 */
export function knownReceiptUrl(payment: SubscriptionPayment): string | null {
  if (payment.receiptUrl) return payment.receiptUrl;
  return payment.provider === 'demo' ? subscriptionOperationPaths.demoReceipt(payment._id) : null;
}

export const receiptName = (payment: SubscriptionPayment) => `Receipt of ${formatDate(payment.paidAt)}`;

/**
 * A payment's receipt, opening in a new tab. A Stripe payment whose receipt was not recorded with it
 * is looked up when asked (the provider may only now have it); the link then takes the button's place.
 */
export function PaymentReceipt({
  subscriptionId,
  payment,
}: {
  subscriptionId: string;
  payment: SubscriptionPayment;
}) {
  const [found, setFound] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  const url = knownReceiptUrl(payment) ?? found;
  useEffect(() => {
    if (found) link.current?.focus();
  }, [found]);

  if (url)
    return (
      <a
        ref={link}
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`${receiptName(payment)} (opens in a new tab)`}
      >
        Receipt
      </a>
    );
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-secondary"
      aria-label={`Find ${receiptName(payment).toLowerCase()}`}
      disabled={looking}
      onClick={async () => {
        setLooking(true);
        try {
          setFound(await getReceiptUrl(subscriptionId, payment._id));
        } catch (error) {
          notifyError(error);
        } finally {
          setLooking(false);
        }
      }}
    >
      {looking ? 'Finding...' : 'Find receipt'}
    </button>
  );
}
