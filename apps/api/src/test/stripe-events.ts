import type { TestApp } from './test-app.ts';

/** A Stripe event as the webhook receives it (JSON text, signed separately). */
export const stripeEventJson = (id: string, type: string, object: object) =>
  JSON.stringify({ id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });

/** Posts a webhook body as Stripe does, with its signature header (none when null). */
export const postStripeWebhook = (t: TestApp, payload: string, signature: string | null) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/subscription/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    payload,
  });
