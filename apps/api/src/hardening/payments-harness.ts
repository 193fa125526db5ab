import { count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import Stripe from 'stripe';
import { expect } from 'vitest';
import { processedPaymentEvents, subscriptions } from '../db/schema/subscriptions.ts';
import { postStripeWebhook, stripeEventJson } from '../test/stripe-events.ts';
import type { TestApp } from '../test/test-app.ts';
import { machineWithSerial } from '#api/modules/subscriptions/subscription-test-requests.ts';

/** One thing that can happen to a link's payment in a random sequence of webhook deliveries. */
export type Step =
  | { kind: 'succeeded' }
  | { kind: 'failed' }
  | { kind: 'replay'; pick: number }
  | { kind: 'forged'; how: number; pick: number }
  | { kind: 'concurrent'; paid: boolean };
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'succeeded' }),
  { weight: 2, arbitrary: fc.constant<Step>({ kind: 'failed' }) },
  { weight: 2, arbitrary: fc.nat().map((pick): Step => ({ kind: 'replay', pick })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.nat({ max: 4 }), fc.nat())
      .map(([how, pick]): Step => ({ kind: 'forged', how, pick })),
  },
  fc.boolean().map((paid): Step => ({ kind: 'concurrent', paid })),
);

type HarnessOptions = {
  current: () => { t: TestApp; token: string };
  webhookSecret: string;
  /** Counted into the suite's result file. */
  onMismatch: () => void;
  onUnexpectedAnswer: () => void;
};

/** Payment links, signed (and forged) Stripe events, and the checks the payment properties make. */
export function paymentsHarness({ current, webhookSecret, onMismatch, onUnexpectedAnswer }: HarnessOptions) {
  let seq = 0;
  const eventOf = (type: string, object: object) => stripeEventJson(`evt_hard_${++seq}`, type, object);
  const sign = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? webhookSecret,
      timestamp: opts.timestamp,
    });
  const deliver = (payload: string, signature: string | null) =>
    postStripeWebhook(current().t, payload, signature);

  const createLink = async (recurring = false) => {
    const serial = `SN-H-${++seq}`;
    await machineWithSerial(current().t, serial);
    const res = await current().t.injectAs(current().token, {
      method: 'POST',
      url: '/api/v1/admin/subscrption/add',
      payload: {
        fullName: 'Hardening Test',
        email: 'payments@example.com',
        machineSerialNumber: serial,
        amount: 10,
        isRecurring: recurring,
        ...(recurring ? { planType: 'month' } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data._id as string;
  };
  /** Opens the checkout, so the link has its payment on record (events about another are refused). */
  const openCheckout = async (id: string) => {
    const res = await current().t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription/checkout',
      payload: { subcriptionId: id },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (await rowOf(id)).providerRef!;
  };
  /** What every link here costs: $10. */
  const paid = { amount: 1000, amount_received: 1000, currency: 'usd' };
  const rowOf = async (id: string) =>
    (await current().t.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const processed = async (eventId: string) =>
    (
      await current()
        .t.database.db.select({ n: count() })
        .from(processedPaymentEvents)
        .where(eq(processedPaymentEvents.id, eventId))
    )[0]!.n;
  const eventIdOf = (payload: string) => (JSON.parse(payload) as { id: string }).id;

  /** Compares and counts; a mismatch fails the property with the difference. */
  function expectSame(actual: unknown, expected: unknown, what: string) {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      onMismatch();
      throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    }
  }
  function expectAnswer(res: { statusCode: number; body: string }, status: number, data?: object) {
    const ok =
      res.statusCode === status &&
      (data === undefined ||
        JSON.stringify((JSON.parse(res.body) as { data: unknown }).data) === JSON.stringify(data));
    if (!ok) {
      onUnexpectedAnswer();
      throw new Error(
        `expected ${status} ${JSON.stringify(data ?? '')}, got ${res.statusCode} ${res.body.slice(0, 200)}`,
      );
    }
  }

  const forgeries = [
    (p: string) => ({ payload: p, signature: sign(p, { secret: 'whsec_attacker' }) }),
    (p: string) => ({
      payload: p
        .replace('"type":"payment_intent.payment_failed"', '"type":"payment_intent.succeeded"')
        .replace('}', ',"x":1}'),
      signature: sign(p),
    }),
    (p: string) => ({ payload: p, signature: sign(p, { timestamp: Math.floor(Date.now() / 1000) - 3600 }) }),
    (p: string) => ({ payload: p, signature: 't=1,v1=deadbeef' }),
    (p: string) => ({ payload: p, signature: null }),
  ];

  return {
    eventOf,
    sign,
    deliver,
    createLink,
    openCheckout,
    paid,
    rowOf,
    processed,
    eventIdOf,
    expectSame,
    expectAnswer,
    forgeries,
  };
}
