import type { PaymentProviderName, PlanType } from '@app/contract/subscriptions';

/** What a provider needs to take a payment for one subscription. The amount always comes from our record. */
export type IntentRequest = {
  subscriptionId: string;
  amountCents: number;
  isRecurring: boolean;
  planType: PlanType | null;
  email: string;
  fullName: string;
  machineSerialNumber: string;
  /** 1 for the first intent of this subscription, 2 for the next...: part of the idempotency key. */
  attempt: number;
};

export type CreatedIntent = {
  clientSecret: string;
  /** One-time: the PaymentIntent; recurring: the provider's subscription. */
  ref: string;
};

/** A payment's state as the provider sees it. */
export type PaymentState =
  | { state: 'succeeded'; periodEnd: Date | null }
  | { state: 'failed'; message: string }
  | { state: 'pending' }
  | { state: 'canceled' };

/** A provider's event, reduced to what it means for one of our subscriptions. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** Our subscription id when the event carries it (metadata), else the provider ref to look up. */
  target: { subscriptionId: string } | { ref: string } | null;
  /**
   * The payment the event is about, checked against our record before anything is applied: the
   * provider's ref (PaymentIntent or subscription id) and, for a payment, its amount and currency.
   */
  payment: { ref: string | null; amountCents: number | null; currency: string | null };
  /**
   * The one payment a 'paid' event is for, when it is not `payment.ref` itself: a recurring plan's
   * invoice (its id, and its `hosted_invoice_url`). A one-time link's PaymentIntent needs none.
   * Recorded once per ref as the subscription's payment, with this receipt.
   */
  receipt?: { ref: string; url: string | null };
  effect:
    | { kind: 'paid'; periodEnd: Date | null }
    | { kind: 'failed'; message: string }
    /** A recurring plan's renewal was refused (Stripe retries it): the machine goes into grace. */
    | { kind: 'renewal-failed'; message: string; periodEnd: Date | null }
    | { kind: 'ended' }
    | { kind: 'ignored' };
};

/**
 * What we know of a customer's card: its last four digits and, for the demo provider, the message
 * a charge on it gets (null: it pays). Stripe keeps the card itself and ignores this.
 */
export type CardOnFile = { last4: string; declines: string | null };

/** Paying a recurring plan's failed renewal again, now. */
export type RetryOutcome =
  | {
      state: 'succeeded';
      /** The payment made: the invoice paid (Stripe) or the demo provider's reference. */
      paymentRef: string;
      /** The end of the period it pays for, when the provider says (else one period from now). */
      periodEnd: Date | null;
      amountCents: number | null;
      receiptUrl: string | null;
    }
  | { state: 'failed'; message: string };

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createIntent(request: IntentRequest): Promise<CreatedIntent>;
  /** The secret of a still-open payment for `ref`, or null when a new one is needed. */
  resumeIntent(ref: string, isRecurring: boolean): Promise<CreatedIntent | null>;
  /** Asks the provider how the payment stands (reconciliation when a webhook was missed). */
  retrieveState(ref: string, isRecurring: boolean): Promise<PaymentState>;
  /** Best effort: a lapsed link's open payment can no longer be completed. */
  cancel(ref: string, isRecurring: boolean): Promise<void>;
  /** Verifies and decodes a webhook; throws WebhookSignatureError when it is not genuine. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;

  // ---- a recurring plan's operations (issue 34 item 5); `ref` is the plan's ref on our record

  /** Stops collecting the plan's payments until `until` (an admin's grace): invoices wait as drafts. */
  pauseCollection(ref: string, until: Date): Promise<void>;
  /** Collects the plan's payments again. */
  resumeCollection(ref: string): Promise<void>;
  /** Ends the plan at the end of its paid period, or now. */
  cancelSubscription(ref: string, atPeriodEnd: boolean): Promise<void>;
  /** Pays the plan's open invoice (a failed renewal) now, with the card on file. */
  retryPayment(ref: string, card: CardOnFile | null): Promise<RetryOutcome>;
  /**
   * A page of the provider's where the customer changes the plan's card, made when they ask for it
   * (Stripe's Billing Portal sessions are short-lived); null when the provider has none and our own
   * page takes the card (the demo provider).
   */
  cardUpdateUrl(ref: string, returnUrl: string): Promise<string | null>;
  /**
   * The receipt of one payment (a PaymentIntent's charge receipt, an invoice's hosted page), for a
   * payment whose event did not carry it; null when there is none (yet).
   */
  receiptUrl(paymentRef: string): Promise<string | null>;
}

export class WebhookSignatureError extends Error {}

/** Every payment link is in US dollars: intents are created in it, and events in any other are refused. */
export const paymentCurrency = 'usd';

/** The end of a paid period that starts at `from`. */
export function addPeriod(from: Date, planType: PlanType): Date {
  const d = new Date(from.getTime());
  if (planType === 'year') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d;
}
