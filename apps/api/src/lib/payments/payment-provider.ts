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
  effect:
    | { kind: 'paid'; periodEnd: Date | null }
    | { kind: 'failed'; message: string }
    | { kind: 'ended' }
    | { kind: 'ignored' };
};

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
