import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { expect } from 'vitest';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { startStripeStandIn, type StripeStandIn } from '#api/test/stripe-stand-in.ts';
import { postStripeWebhook, stripeEventJson } from '#api/test/stripe-events.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { machineWithSerial } from './subscription-test-requests.ts';

export const webhookSecret = 'whsec_route_test';

export type StripeApp = { standIn: StripeStandIn; t: TestApp; token: string; close: () => Promise<void> };

/** An app that pays through a Stripe stand-in, and the admin's token. */
export async function startStripeApp(): Promise<StripeApp> {
  const standIn = await startStripeStandIn();
  const t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_standin',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: standIn.url,
  });
  const token = await t.login();
  return {
    standIn,
    t,
    token,
    close: async () => {
      await t.close();
      await standIn.close();
    },
  };
}

const valid = {
  fullName: 'Grace Hopper',
  email: 'grace@example.com',
  machineSerialNumber: 'SN-0042',
  amount: 120.5,
  isRecurring: false,
};

/** Creating and paying links, and delivering signed Stripe events, against the app `current()` gives. */
export function stripeRequests(current: () => StripeApp) {
  let eventSeq = 0;
  const create = async (overrides: object = {}) => {
    const { t, token } = current();
    const payload = { ...valid, ...overrides } as { machineSerialNumber: string };
    await machineWithSerial(t, payload.machineSerialNumber);
    const res = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/subscrption/add',
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data._id as string;
  };
  const checkout = (id: string) =>
    current().t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription/checkout',
      payload: { subcriptionId: id },
    });
  const row = async (id: string) =>
    (await current().t.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const event = (type: string, object: object) => stripeEventJson(`evt_route_${++eventSeq}`, type, object);
  /** The id of the event `event()` made last. */
  const lastEventId = () => `evt_route_${eventSeq}`;
  const deliver = (
    payload: string,
    signature: string | null = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
  ) => postStripeWebhook(current().t, payload, signature);
  return { create, checkout, row, event, lastEventId, deliver };
}
