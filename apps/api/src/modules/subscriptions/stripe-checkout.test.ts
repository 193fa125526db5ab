import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { processedPaymentEvents, subscriptions } from '../../db/schema/subscriptions.ts';
import { startStripeStandIn, type StripeStandIn } from '../../test/stripe-stand-in.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const webhookSecret = 'whsec_route_test';
let standIn: StripeStandIn;
let t: TestApp;
let token: string;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_standin',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: standIn.url,
  });
  token = await t.login();
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

const valid = {
  fullName: 'Grace Hopper',
  email: 'grace@example.com',
  machineSerialNumber: 'SN-0042',
  amount: 120.5,
  isRecurring: false,
};
const create = async (overrides: object = {}) => {
  const res = await t.injectAs(token, {
    method: 'POST',
    url: '/api/v1/admin/subscrption/add',
    payload: { ...valid, ...overrides },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data._id as string;
};
const checkout = (id: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/subscription/checkout',
    payload: { subcriptionId: id },
  });
const row = async (id: string) =>
  (await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

let eventSeq = 0;
const event = (type: string, object: object) =>
  JSON.stringify({
    id: `evt_route_${++eventSeq}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
const deliver = (
  payload: string,
  signature: string | null = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/subscription/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    payload,
  });

describe('checkout with Stripe', () => {
  it('creates a PaymentIntent for the amount on record and reuses it on reload', async () => {
    const id = await create();
    standIn.requests.length = 0;
    const first = await checkout(id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.provider).toBe('stripe');
    const created = standIn.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST')!;
    expect(created.form.get('amount')).toBe('12050');
    expect(created.headers['idempotency-key']).toBe(`subscription-${id}-attempt-1`);

    const second = await checkout(id);
    expect(second.json().data.clientSecret).toBe(first.json().data.clientSecret);
    expect(
      standIn.requests.filter((r) => r.path === '/v1/payment_intents' && r.method === 'POST'),
    ).toHaveLength(1);
  });

  it('starts a new attempt with a new idempotency key when the old intent was canceled', async () => {
    const id = await create();
    await checkout(id);
    const { providerRef } = await row(id);
    standIn.intents.get(providerRef!)!.status = 'canceled';
    standIn.requests.length = 0;
    expect((await checkout(id)).statusCode).toBe(200);
    expect(
      standIn.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST')!.headers[
        'idempotency-key'
      ],
    ).toBe(`subscription-${id}-attempt-2`);
  });

  it('answers a Stripe outage with a 502, not a 500', async () => {
    const id = await create();
    standIn.setOverride(() => ({ status: 500, body: { error: { type: 'api_error', message: 'down' } } }));
    try {
      const res = await checkout(id);
      expect(res.statusCode).toBe(502);
      expect(res.json().msg).toBe('The payment provider is not available right now. Please try again.');
    } finally {
      standIn.setOverride(null);
    }
  });
});

describe('the Stripe webhook', () => {
  it('marks the link Complete on payment_intent.succeeded, and a replay changes nothing', async () => {
    const id = await create();
    await checkout(id);
    const { providerRef } = await row(id);
    const payload = event('payment_intent.succeeded', {
      id: providerRef,
      object: 'payment_intent',
      amount: 12050,
      amount_received: 12050,
      currency: 'usd',
      metadata: { subscriptionId: id },
    });
    const res = await deliver(payload);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ received: true, duplicate: false });
    const paid = await row(id);
    expect(paid.status).toBe(2);

    const replay = await deliver(payload);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data).toEqual({ received: true, duplicate: true });
    expect((await row(id)).updatedAt).toEqual(paid.updatedAt);
    const [{ n }] = (await t.database.db
      .select({ n: count() })
      .from(processedPaymentEvents)
      .where(eq(processedPaymentEvents.id, `evt_route_${eventSeq}`))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('marks the link Failed on payment_intent.payment_failed', async () => {
    const id = await create();
    await checkout(id);
    const res = await deliver(
      event('payment_intent.payment_failed', {
        id: (await row(id)).providerRef,
        object: 'payment_intent',
        metadata: { subscriptionId: id },
        last_payment_error: { message: 'Your card was declined.' },
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ status: 4, lastPaymentError: 'Your card was declined.' });
  });

  it('refuses a missing, invalid or forged signature with 400 and changes nothing', async () => {
    const id = await create();
    const payload = event('payment_intent.succeeded', {
      id: 'pi_y',
      object: 'payment_intent',
      metadata: { subscriptionId: id },
    });
    for (const signature of [
      null,
      'garbage',
      't=1,v1=deadbeef',
      Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }),
    ]) {
      const res = await deliver(payload, signature);
      expect(res.statusCode, String(signature)).toBe(400);
      expect(res.json().msg).toBe('Invalid Stripe signature');
    }
    const tampered = await deliver(
      payload.replace('pi_y', 'pi_z'),
      Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
    );
    expect(tampered.statusCode).toBe(400);
    expect((await row(id)).status).toBe(1);
    expect(
      (
        await t.database.db
          .select({ n: count() })
          .from(processedPaymentEvents)
          .where(eq(processedPaymentEvents.id, `evt_route_${eventSeq}`))
      )[0]!.n,
    ).toBe(0);
  });

  it('starts, renews and ends a recurring plan from invoice and subscription events', async () => {
    const id = await create({ isRecurring: true, planType: 'month' });
    const intent = await checkout(id);
    expect(intent.json().data.clientSecret).toMatch(/^pi_for_sub_test_\d+_secret_standin$/);
    const { providerRef } = await row(id);
    const periodEnd = Math.floor(t.clock.now.getTime() / 1000) + 31 * 86400;
    const invoice = (end: number, reason: string) => ({
      id: `in_${end}`,
      object: 'invoice',
      billing_reason: reason,
      amount_paid: 12050,
      currency: 'usd',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: providerRef, metadata: { subscriptionId: id } },
      },
      lines: {
        object: 'list',
        data: [{ id: 'il_1', object: 'line_item', period: { start: end - 31 * 86400, end } }],
      },
    });
    expect((await deliver(event('invoice.paid', invoice(periodEnd, 'subscription_create')))).statusCode).toBe(
      200,
    );
    expect(await row(id)).toMatchObject({ status: 2, expiredAt: new Date(periodEnd * 1000) });

    const renewedEnd = periodEnd + 30 * 86400;
    await deliver(event('invoice.paid', invoice(renewedEnd, 'subscription_cycle')));
    expect((await row(id)).expiredAt).toEqual(new Date(renewedEnd * 1000));
    // An older invoice arriving late never shortens the paid period.
    await deliver(event('invoice.paid', invoice(periodEnd, 'subscription_cycle')));
    expect((await row(id)).expiredAt).toEqual(new Date(renewedEnd * 1000));
    // A failed renewal is left to Stripe's retries.
    await deliver(event('invoice.payment_failed', invoice(renewedEnd + 30 * 86400, 'subscription_cycle')));
    expect((await row(id)).status).toBe(2);

    // Found by the Stripe subscription id alone, too.
    await deliver(
      event('customer.subscription.deleted', { id: providerRef, object: 'subscription', metadata: {} }),
    );
    expect((await row(id)).status).toBe(3);
  });
});

describe('a signed event that does not match the link', () => {
  const paidEvent = (intent: object) =>
    event('payment_intent.succeeded', {
      object: 'payment_intent',
      amount: 12050,
      amount_received: 12050,
      currency: 'usd',
      ...intent,
    });
  const refusals = async (eventId: string) =>
    (
      await t.database.db
        .select({ type: processedPaymentEvents.type })
        .from(processedPaymentEvents)
        .where(eq(processedPaymentEvents.id, eventId))
    )[0]?.type;

  it.each([
    [
      'another payment',
      { id: 'pi_someone_else' },
      /refused: payment pi_someone_else is not the link's payment pi_/,
    ],
    [
      'a smaller amount',
      { amount: 100, amount_received: 100 },
      /refused: amount 100 is not the link's 12050/,
    ],
    ['another currency', { currency: 'eur' }, /refused: currency eur is not usd/],
  ])('refuses %s, records the refusal and leaves the link unpaid', async (_what, change, reason) => {
    const id = await create();
    await checkout(id);
    const { providerRef } = await row(id);
    const payload = paidEvent({ id: providerRef, metadata: { subscriptionId: id }, ...change });
    const res = await deliver(payload);
    expect(res.statusCode, res.body).toBe(200);
    expect((await row(id)).status).toBe(1);
    expect(await refusals(`evt_route_${eventSeq}`)).toMatch(reason);
  });

  it('refuses a payment for a link whose checkout was never opened', async () => {
    const id = await create();
    await deliver(paidEvent({ id: 'pi_made_elsewhere', metadata: { subscriptionId: id } }));
    expect((await row(id)).status).toBe(1);
    expect(await refusals(`evt_route_${eventSeq}`)).toMatch(/refused: the link is not paid through stripe/);
  });
});

describe('reconciliation', () => {
  it('finds a payment whose webhook never came, on request and in the periodic sweep', async () => {
    const a = await create();
    const b = await create();
    await checkout(a);
    await checkout(b);
    standIn.intents.get((await row(a)).providerRef!)!.status = 'succeeded';
    standIn.intents.get((await row(b)).providerRef!)!.status = 'succeeded';

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription/reconcile',
      payload: { subcriptionId: a },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe(2);

    expect((await row(b)).status).toBe(1);
    await t.app.subscriptions.sweep();
    expect((await row(b)).status).toBe(2);
  });

  it('cancels the open intent of a link that lapsed unpaid', async () => {
    const id = await create();
    await checkout(id);
    const ref = (await row(id)).providerRef!;
    t.clock.advance(8 * 24 * 3600_000);
    await t.app.subscriptions.sweep();
    expect((await row(id)).status).toBe(3);
    expect(standIn.intents.get(ref)!.status).toBe('canceled');
  });
});
