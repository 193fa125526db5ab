import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { processedPaymentEvents } from '#api/db/schema/subscriptions.ts';
import { startStripeApp, stripeRequests, webhookSecret, type StripeApp } from './stripe-test-app.ts';

let s: StripeApp;
beforeAll(async () => (s = await startStripeApp()));
afterAll(() => s.close());
const { create, checkout, row, event, lastEventId, deliver } = stripeRequests(() => s);

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
    const [{ n }] = (await s.t.database.db
      .select({ n: count() })
      .from(processedPaymentEvents)
      .where(eq(processedPaymentEvents.id, lastEventId()))) as [{ n: number }];
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
        await s.t.database.db
          .select({ n: count() })
          .from(processedPaymentEvents)
          .where(eq(processedPaymentEvents.id, lastEventId()))
      )[0]!.n,
    ).toBe(0);
  });

  it('starts, renews and ends a recurring plan from invoice and subscription events', async () => {
    const id = await create({ isRecurring: true, planType: 'month' });
    const intent = await checkout(id);
    expect(intent.json().data.clientSecret).toMatch(/^pi_for_sub_test_\d+_secret_standin$/);
    const { providerRef } = await row(id);
    const periodEnd = Math.floor(s.t.clock.now.getTime() / 1000) + 31 * 86400;
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
      await s.t.database.db
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
    expect(await refusals(lastEventId())).toMatch(reason);
  });

  it('refuses a payment for a link whose checkout was never opened', async () => {
    const id = await create();
    await deliver(paidEvent({ id: 'pi_made_elsewhere', metadata: { subscriptionId: id } }));
    expect((await row(id)).status).toBe(1);
    expect(await refusals(lastEventId())).toMatch(/refused: the link is not paid through stripe/);
  });
});
