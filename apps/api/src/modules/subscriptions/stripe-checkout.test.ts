import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeApp, stripeRequests, type StripeApp } from './stripe-test-app.ts';

let s: StripeApp;
beforeAll(async () => (s = await startStripeApp()));
afterAll(() => s.close());
const { create, checkout, row } = stripeRequests(() => s);

describe('checkout with Stripe', () => {
  it('creates a PaymentIntent for the amount on record and reuses it on reload', async () => {
    const id = await create();
    s.standIn.requests.length = 0;
    const first = await checkout(id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.provider).toBe('stripe');
    const created = s.standIn.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST')!;
    expect(created.form.get('amount')).toBe('12050');
    expect(created.headers['idempotency-key']).toBe(`subscription-${id}-attempt-1`);

    const second = await checkout(id);
    expect(second.json().data.clientSecret).toBe(first.json().data.clientSecret);
    expect(
      s.standIn.requests.filter((r) => r.path === '/v1/payment_intents' && r.method === 'POST'),
    ).toHaveLength(1);
  });

  it('starts a new attempt with a new idempotency key when the old intent was canceled', async () => {
    const id = await create();
    await checkout(id);
    const { providerRef } = await row(id);
    s.standIn.intents.get(providerRef!)!.status = 'canceled';
    s.standIn.requests.length = 0;
    expect((await checkout(id)).statusCode).toBe(200);
    expect(
      s.standIn.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST')!.headers[
        'idempotency-key'
      ],
    ).toBe(`subscription-${id}-attempt-2`);
  });

  it('answers a Stripe outage with a 502, not a 500', async () => {
    const id = await create();
    s.standIn.setOverride(() => ({ status: 500, body: { error: { type: 'api_error', message: 'down' } } }));
    try {
      const res = await checkout(id);
      expect(res.statusCode).toBe(502);
      expect(res.json().msg).toBe('The payment provider is not available right now. Please try again.');
    } finally {
      s.standIn.setOverride(null);
    }
  });
});

describe('reconciliation', () => {
  it('finds a payment whose webhook never came, on request and in the periodic sweep', async () => {
    const a = await create();
    const b = await create();
    await checkout(a);
    await checkout(b);
    s.standIn.intents.get((await row(a)).providerRef!)!.status = 'succeeded';
    s.standIn.intents.get((await row(b)).providerRef!)!.status = 'succeeded';

    const res = await s.t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription/reconcile',
      payload: { subcriptionId: a },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe(2);

    expect((await row(b)).status).toBe(1);
    await s.t.app.subscriptions.sweep();
    expect((await row(b)).status).toBe(2);
  });

  it('cancels the open intent of a link that lapsed unpaid', async () => {
    const id = await create();
    await checkout(id);
    const ref = (await row(id)).providerRef!;
    s.t.clock.advance(8 * 24 * 3600_000);
    await s.t.app.subscriptions.sweep();
    expect((await row(id)).status).toBe(3);
    expect(s.standIn.intents.get(ref)!.status).toBe('canceled');
  });
});
