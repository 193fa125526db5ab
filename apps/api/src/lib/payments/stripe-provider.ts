import Stripe from 'stripe';
import type {
  CreatedIntent,
  IntentRequest,
  PaymentEvent,
  PaymentProvider,
  PaymentState,
} from './payment-provider.ts';
import { paymentCurrency, WebhookSignatureError } from './payment-provider.ts';
import { idOf, invoicePeriodEnd, stripePlanOperations, toDate } from './stripe-plan-operations.ts';

/**
 * Pinned: from 2025-03-31 an invoice's client secret is `confirmation_secret`, not
 * `payment_intent`; a pin keeps the shapes this file reads from moving under it.
 */
export const stripeApiVersion = '2026-10-28.endive' as const;

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string | undefined;
  /** Another API address (Stripe's stripe-mock, or a test stand-in); default api.stripe.com. */
  apiUrl?: string;
};

const openIntent = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
]);

function clientOptions(apiUrl: string | undefined): ConstructorParameters<typeof Stripe>[1] {
  const options: ConstructorParameters<typeof Stripe>[1] = {
    apiVersion: stripeApiVersion,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  };
  if (apiUrl) {
    const url = new URL(apiUrl);
    options.host = url.hostname;
    options.port = url.port || (url.protocol === 'http:' ? 80 : 443);
    options.protocol = url.protocol === 'http:' ? 'http' : 'https';
  }
  return options;
}

const intentPayment = (intent: Stripe.PaymentIntent): PaymentEvent['payment'] => ({
  ref: intent.id,
  amountCents: intent.amount_received ?? intent.amount ?? null,
  currency: intent.currency ?? null,
});

/** A recurring plan's payments are known by the Stripe subscription (the ref on our record). */
const invoicePayment = (invoice: Stripe.Invoice): PaymentEvent['payment'] => ({
  ref: idOf(invoice.parent?.subscription_details?.subscription),
  amountCents: invoice.amount_paid ?? null,
  currency: invoice.currency ?? null,
});

function invoiceTarget(invoice: Stripe.Invoice): PaymentEvent['target'] {
  const details = invoice.parent?.subscription_details;
  const subscriptionId = details?.metadata?.subscriptionId;
  if (subscriptionId) return { subscriptionId };
  const ref = idOf(details?.subscription);
  return ref ? { ref } : null;
}

export function createStripeProvider({
  secretKey,
  webhookSecret,
  apiUrl,
}: StripeProviderOptions): PaymentProvider & { readonly name: 'stripe' } {
  const stripe = new Stripe(secretKey, clientOptions(apiUrl));

  async function createRecurring(request: IntentRequest): Promise<CreatedIntent> {
    const key = (what: string) => `subscription-${request.subscriptionId}-attempt-${request.attempt}-${what}`;
    const metadata = {
      subscriptionId: request.subscriptionId,
      machineSerialNumber: request.machineSerialNumber,
    };
    const customer = await stripe.customers.create(
      { email: request.email, name: request.fullName, metadata },
      { idempotencyKey: key('customer') },
    );
    const product = await stripe.products.create(
      { name: `Device subscription ${request.machineSerialNumber}`, metadata },
      { idempotencyKey: key('product') },
    );
    const subscription = await stripe.subscriptions.create(
      {
        customer: customer.id,
        items: [
          {
            price_data: {
              currency: paymentCurrency,
              product: product.id,
              unit_amount: request.amountCents,
              recurring: { interval: request.planType ?? 'month' },
            },
          },
        ],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice.confirmation_secret'],
        metadata,
      },
      { idempotencyKey: key('subscription') },
    );
    const secret = (subscription.latest_invoice as Stripe.Invoice | null)?.confirmation_secret?.client_secret;
    if (!secret) throw new Error(`Stripe subscription ${subscription.id} has no confirmation secret`);
    return { ref: subscription.id, clientSecret: secret };
  }

  async function createOneTime(request: IntentRequest): Promise<CreatedIntent> {
    const intent = await stripe.paymentIntents.create(
      {
        amount: request.amountCents,
        currency: paymentCurrency,
        automatic_payment_methods: { enabled: true },
        receipt_email: request.email,
        description: `Device subscription ${request.machineSerialNumber}`,
        metadata: {
          subscriptionId: request.subscriptionId,
          machineSerialNumber: request.machineSerialNumber,
        },
      },
      { idempotencyKey: `subscription-${request.subscriptionId}-attempt-${request.attempt}` },
    );
    if (!intent.client_secret) throw new Error(`Stripe PaymentIntent ${intent.id} has no client secret`);
    return { ref: intent.id, clientSecret: intent.client_secret };
  }

  function intentState(intent: Stripe.PaymentIntent): PaymentState {
    if (intent.status === 'succeeded') return { state: 'succeeded', periodEnd: null };
    if (intent.status === 'canceled') return { state: 'canceled' };
    if (intent.status === 'requires_payment_method' && intent.last_payment_error) {
      return { state: 'failed', message: intent.last_payment_error.message ?? 'Payment failed' };
    }
    return { state: 'pending' };
  }

  return {
    name: 'stripe',
    createIntent: (request) => (request.isRecurring ? createRecurring(request) : createOneTime(request)),

    async resumeIntent(ref, isRecurring) {
      if (isRecurring) {
        const subscription = await stripe.subscriptions.retrieve(ref, {
          expand: ['latest_invoice.confirmation_secret'],
        });
        const secret = (subscription.latest_invoice as Stripe.Invoice | null)?.confirmation_secret
          ?.client_secret;
        return subscription.status === 'incomplete' && secret ? { ref, clientSecret: secret } : null;
      }
      const intent = await stripe.paymentIntents.retrieve(ref);
      return openIntent.has(intent.status) && intent.client_secret
        ? { ref, clientSecret: intent.client_secret }
        : null;
    },

    async retrieveState(ref, isRecurring) {
      if (!isRecurring) return intentState(await stripe.paymentIntents.retrieve(ref));
      const subscription = await stripe.subscriptions.retrieve(ref);
      if (subscription.status === 'active' || subscription.status === 'trialing') {
        const ends = subscription.items.data.map((i) => i.current_period_end);
        return { state: 'succeeded', periodEnd: toDate(ends.length ? Math.max(...ends) : null) };
      }
      if (subscription.status === 'incomplete_expired' || subscription.status === 'canceled')
        return { state: 'canceled' };
      return { state: 'pending' };
    },

    async cancel(ref, isRecurring) {
      if (isRecurring) await stripe.subscriptions.cancel(ref);
      else await stripe.paymentIntents.cancel(ref);
    },

    ...stripePlanOperations(stripe),

    async parseWebhook(rawBody, signature) {
      if (!webhookSecret) throw new WebhookSignatureError('STRIPE_WEBHOOK_SECRET is not set');
      if (!signature) throw new WebhookSignatureError('missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'bad signature');
      }
      const base = {
        id: event.id,
        type: event.type,
        payment: { ref: null, amountCents: null, currency: null },
      };
      switch (event.type) {
        case 'payment_intent.succeeded': {
          const id = event.data.object.metadata?.subscriptionId;
          return {
            ...base,
            payment: intentPayment(event.data.object),
            target: id ? { subscriptionId: id } : null,
            effect: { kind: 'paid', periodEnd: null },
          };
        }
        case 'payment_intent.payment_failed': {
          const intent = event.data.object;
          const id = intent.metadata?.subscriptionId;
          return {
            ...base,
            payment: intentPayment(intent),
            target: id ? { subscriptionId: id } : null,
            effect: { kind: 'failed', message: intent.last_payment_error?.message ?? 'Payment failed' },
          };
        }
        case 'invoice.paid': {
          // Each period's invoice is one payment of the plan, with Stripe's hosted page as its receipt.
          const invoice = event.data.object;
          return {
            ...base,
            payment: invoicePayment(invoice),
            target: invoiceTarget(invoice),
            receipt: invoice.id ? { ref: invoice.id, url: invoice.hosted_invoice_url ?? null } : undefined,
            effect: { kind: 'paid', periodEnd: invoicePeriodEnd(invoice) },
          };
        }
        case 'invoice.payment_failed': {
          // A first invoice that fails fails the link; a renewal that fails (Stripe retries it) puts
          // the machine into grace, with a dunning mail.
          const invoice = event.data.object;
          const first = invoice.billing_reason === 'subscription_create';
          const message = invoice.last_finalization_error?.message ?? 'Payment failed';
          return {
            ...base,
            payment: invoicePayment(invoice),
            target: invoiceTarget(invoice),
            effect: first
              ? { kind: 'failed', message }
              : { kind: 'renewal-failed', message, periodEnd: invoicePeriodEnd(invoice) },
          };
        }
        case 'customer.subscription.deleted': {
          const subscription = event.data.object;
          const id = subscription.metadata?.subscriptionId;
          return {
            ...base,
            payment: { ref: subscription.id, amountCents: null, currency: null },
            target: id ? { subscriptionId: id } : { ref: subscription.id },
            effect: { kind: 'ended' },
          };
        }
        default:
          return { ...base, target: null, effect: { kind: 'ignored' } };
      }
    },
  };
}
