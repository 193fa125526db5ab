import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { startStripeStandIn, type StripeStandIn } from '#api/test/stripe-stand-in.ts';
import { WebhookSignatureError, type IntentRequest } from './payment-provider.ts';
import { createStripeProvider, stripeApiVersion } from './stripe-provider.ts';

let standIn: StripeStandIn;
let provider: ReturnType<typeof createStripeProvider>;
const webhookSecret = 'whsec_test_secret';

beforeAll(async () => {
  standIn = await startStripeStandIn();
  provider = createStripeProvider({ secretKey: 'sk_test_standin', webhookSecret, apiUrl: standIn.url });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.length = 0;
  standIn.setOverride(null);
});

const request: IntentRequest = {
  subscriptionId: 'SUBid0123456789abcdefghij',
  amountCents: 4999,
  isRecurring: false,
  planType: null,
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  machineSerialNumber: 'SN-0001',
  attempt: 1,
};

describe('the Stripe provider against a stand-in of the Stripe API', () => {
  it('creates a one-time PaymentIntent in USD cents with an idempotency key per subscription and attempt', async () => {
    const created = await provider.createIntent(request);
    expect(created.clientSecret).toMatch(/^pi_test_\d+_secret_/);
    const [sent] = standIn.requests;
    expect(sent).toBeDefined();
    expect(sent!.method).toBe('POST');
    expect(sent!.path).toBe('/v1/payment_intents');
    expect(sent!.headers['idempotency-key']).toBe(`subscription-${request.subscriptionId}-attempt-1`);
    expect(sent!.headers['stripe-version']).toBe(stripeApiVersion);
    expect(sent!.headers.authorization).toBe('Bearer sk_test_standin');
    expect(sent!.form.get('amount')).toBe('4999');
    expect(sent!.form.get('currency')).toBe('usd');
    expect(sent!.form.get('metadata[subscriptionId]')).toBe(request.subscriptionId);

    await provider.createIntent({ ...request, attempt: 2 });
    expect(standIn.requests[1]!.headers['idempotency-key']).toBe(
      `subscription-${request.subscriptionId}-attempt-2`,
    );
  });

  it('resumes an open intent and reports its state', async () => {
    const { ref, clientSecret } = await provider.createIntent(request);
    expect(await provider.resumeIntent(ref, false)).toEqual({ ref, clientSecret });
    expect(await provider.retrieveState(ref, false)).toEqual({ state: 'pending' });
    standIn.intents.get(ref)!.status = 'succeeded';
    expect(await provider.retrieveState(ref, false)).toEqual({ state: 'succeeded', periodEnd: null });
    expect(await provider.resumeIntent(ref, false)).toBeNull();
    const intent = standIn.intents.get(ref)!;
    intent.status = 'requires_payment_method';
    intent.last_payment_error = { message: 'Your card was declined.' };
    expect(await provider.retrieveState(ref, false)).toEqual({
      state: 'failed',
      message: 'Your card was declined.',
    });
  });

  it('starts a recurring plan as a Stripe Subscription (default_incomplete) and takes the secret from its first invoice', async () => {
    const created = await provider.createIntent({ ...request, isRecurring: true, planType: 'year' });
    expect(created.ref).toMatch(/^sub_test_/);
    expect(created.clientSecret).toBe(`pi_for_${created.ref}_secret_standin`);
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/products',
      'POST /v1/subscriptions',
    ]);
    const sub = standIn.requests[2]!;
    expect(sub.form.get('payment_behavior')).toBe('default_incomplete');
    expect(sub.form.get('expand[0]')).toBe('latest_invoice.confirmation_secret');
    expect(sub.form.get('items[0][price_data][unit_amount]')).toBe('4999');
    expect(sub.form.get('items[0][price_data][currency]')).toBe('usd');
    expect(sub.form.get('items[0][price_data][recurring][interval]')).toBe('year');
    expect(sub.form.get('metadata[subscriptionId]')).toBe(request.subscriptionId);
    expect(sub.headers['idempotency-key']).toBe(
      `subscription-${request.subscriptionId}-attempt-1-subscription`,
    );

    expect(await provider.retrieveState(created.ref, true)).toEqual({ state: 'pending' });
    standIn.subscriptions.get(created.ref)!.status = 'active';
    const state = await provider.retrieveState(created.ref, true);
    expect(state.state).toBe('succeeded');
  });

  it('surfaces an API error as a thrown error (the service turns it into a 502)', async () => {
    standIn.setOverride(() => ({ status: 500, body: { error: { type: 'api_error', message: 'boom' } } }));
    await expect(provider.createIntent(request)).rejects.toThrow();
  });
});

describe('Stripe webhook signatures', () => {
  const payload = JSON.stringify({
    id: 'evt_test_1',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: 'pi_1',
        object: 'payment_intent',
        amount: 500,
        amount_received: 500,
        currency: 'usd',
        metadata: { subscriptionId: 'abc' },
      },
    },
  });

  it('accepts a genuine signature and reads the subscription id, payment id, amount and currency', async () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const event = await provider.parseWebhook(Buffer.from(payload), header);
    expect(event).toEqual({
      id: 'evt_test_1',
      type: 'payment_intent.succeeded',
      target: { subscriptionId: 'abc' },
      payment: { ref: 'pi_1', amountCents: 500, currency: 'usd' },
      effect: { kind: 'paid', periodEnd: null },
    });
  });

  it('refuses a missing, forged, stale or tampered signature', async () => {
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const good = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    await expect(provider.parseWebhook(Buffer.from(payload), undefined)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(provider.parseWebhook(Buffer.from(payload), forged)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(provider.parseWebhook(Buffer.from(payload), stale)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(
      provider.parseWebhook(Buffer.from(payload.replace('abc', 'xyz')), good),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});
