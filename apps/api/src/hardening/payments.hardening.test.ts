// Payment webhooks under abuse: replays, out-of-order delivery, concurrent duplicates and forged,
// tampered, stale or missing signatures, as random sequences checked against a model of the link's
// status. The single-event cases (one replay, one forged signature) are in
// modules/subscriptions/stripe-checkout.test.ts; this suite drives many sequences and reports figures.
//
// PAYMENT_SEQUENCES (default 40) sets the random sequences per property.
import { count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processedPaymentEvents, subscriptions } from '../db/schema/subscriptions.ts';
import { startStripeStandIn, type StripeStandIn } from '../test/stripe-stand-in.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { writeHardeningResult } from './result-file.ts';

const sequences = Number(process.env.PAYMENT_SEQUENCES ?? 40);
const secret = 'whsec_hardening';
let standIn: StripeStandIn;
let t: TestApp;
let token: string;

const figures = {
  sequences: 0,
  delivered: 0,
  applied: 0,
  replays: 0,
  concurrentDuplicates: 0,
  forged: 0,
  permutations: 0,
  mismatches: 0,
  unexpectedAnswers: 0,
  refused: 0,
};
const results: Record<string, boolean> = {};

beforeAll(async () => {
  standIn = await startStripeStandIn();
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_standin',
    STRIPE_WEBHOOK_SECRET: secret,
    STRIPE_API_URL: standIn.url,
  });
  token = await t.login();
});

afterAll(async () => {
  const passed =
    Object.values(results).length === 4 &&
    Object.values(results).every(Boolean) &&
    figures.mismatches === 0 &&
    figures.unexpectedAnswers === 0;
  writeHardeningResult({
    suite: 'payments',
    title: 'Payments: webhook replay, out-of-order events, forged signatures',
    passed,
    figures: [
      { name: 'Random event sequences', value: figures.sequences },
      { name: 'Signed events delivered', value: figures.delivered },
      { name: 'Events applied once', value: figures.applied },
      { name: 'Replays of an applied event (answered duplicate, nothing changed)', value: figures.replays },
      { name: 'Concurrent duplicate deliveries (applied exactly once)', value: figures.concurrentDuplicates },
      { name: 'Forged, tampered, stale or missing signatures (400, nothing changed)', value: figures.forged },
      { name: 'Out-of-order renewals (invoice orders tried)', value: figures.permutations },
      { name: 'Events for a payment not on record (refused, nothing changed)', value: figures.refused },
      { name: 'State differing from the model', value: figures.mismatches, target: '0' },
      { name: 'Unexpected answers', value: figures.unexpectedAnswers, target: '0' },
    ],
    notes: [
      'Model of a one-time link: Pending → Failed on payment_failed, → Complete on succeeded; Complete is final (a stale payment_failed after the payment changes nothing); a replayed event id is answered `duplicate: true` and changes nothing.',
      'Recurring links: the same invoice.paid / invoice.payment_failed events in every delivered order give the same end state (Complete until the latest period end; a first invoice that failed only counts while nothing is paid); an event whose payment is not the one on record (no checkout opened, another payment id, another amount or currency) is recorded as refused and changes nothing.',
      'Signatures: Stripe.webhooks.generateTestHeaderString with the right secret; forged = wrong secret, tampered body, timestamp outside the 300 s tolerance, garbage header, or none.',
    ],
  });
  await t.close();
  await standIn.close();
});

let seq = 0;
const eventOf = (type: string, object: object) =>
  JSON.stringify({
    id: `evt_hard_${++seq}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
const sign = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
  Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? secret,
    timestamp: opts.timestamp,
  });
const deliver = (payload: string, signature: string | null) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/subscription/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    payload,
  });

const createLink = async (recurring = false) => {
  const res = await t.injectAs(token, {
    method: 'POST',
    url: '/api/v1/admin/subscrption/add',
    payload: {
      fullName: 'Hardening Test',
      email: 'payments@example.com',
      machineSerialNumber: `SN-H-${++seq}`,
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
  const res = await t.app.inject({
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
  (await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const processed = async (eventId: string) =>
  (
    await t.database.db
      .select({ n: count() })
      .from(processedPaymentEvents)
      .where(eq(processedPaymentEvents.id, eventId))
  )[0]!.n;
const eventIdOf = (payload: string) => (JSON.parse(payload) as { id: string }).id;

/** Compares and counts; a mismatch fails the property with the difference. */
function expectSame(actual: unknown, expected: unknown, what: string) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    figures.mismatches++;
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}
function expectAnswer(res: { statusCode: number; body: string }, status: number, data?: object) {
  const ok =
    res.statusCode === status &&
    (data === undefined ||
      JSON.stringify((JSON.parse(res.body) as { data: unknown }).data) === JSON.stringify(data));
  if (!ok) {
    figures.unexpectedAnswers++;
    throw new Error(
      `expected ${status} ${JSON.stringify(data ?? '')}, got ${res.statusCode} ${res.body.slice(0, 200)}`,
    );
  }
}

type Step =
  | { kind: 'succeeded' }
  | { kind: 'failed' }
  | { kind: 'replay'; pick: number }
  | { kind: 'forged'; how: number; pick: number }
  | { kind: 'concurrent'; paid: boolean };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
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

describe('payment webhooks', () => {
  it('one-time links follow the model under random replays, stale failures, duplicates and forgeries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 10 }), async (steps) => {
        figures.sequences++;
        const id = await createLink();
        const ref = await openCheckout(id);
        const sent: string[] = [];
        let status = 1;
        const intent = (succeeded: boolean) =>
          eventOf(succeeded ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', {
            id: ref,
            object: 'payment_intent',
            ...paid,
            metadata: { subscriptionId: id },
            ...(succeeded ? {} : { last_payment_error: { message: 'Your card was declined.' } }),
          });
        for (const step of steps) {
          const before = await rowOf(id);
          if (step.kind === 'succeeded' || step.kind === 'failed') {
            const payload = intent(step.kind === 'succeeded');
            expectAnswer(await deliver(payload, sign(payload)), 200, { received: true, duplicate: false });
            figures.delivered++;
            figures.applied++;
            sent.push(payload);
            if (step.kind === 'succeeded') status = 2;
            else if (status !== 2) status = 4;
          } else if (step.kind === 'concurrent') {
            const payload = intent(step.paid);
            const answers = await Promise.all([
              deliver(payload, sign(payload)),
              deliver(payload, sign(payload)),
            ]);
            const duplicates = answers
              .map((a) => (JSON.parse(a.body) as { data?: { duplicate?: boolean } }).data?.duplicate)
              .sort();
            expectSame(
              [answers[0]!.statusCode, answers[1]!.statusCode, ...duplicates],
              [200, 200, false, true],
              'two simultaneous deliveries',
            );
            expectSame(await processed(eventIdOf(payload)), 1, 'rows for one event id');
            figures.delivered += 2;
            figures.applied++;
            figures.concurrentDuplicates++;
            sent.push(payload);
            if (step.paid) status = 2;
            else if (status !== 2) status = 4;
          } else {
            // Replays and forgeries change nothing at all, not even updatedAt.
            const original = sent.length ? sent[step.pick % sent.length]! : intent(true);
            if (step.kind === 'replay' && sent.length) {
              expectAnswer(await deliver(original, sign(original)), 200, { received: true, duplicate: true });
              figures.replays++;
            } else {
              const forged = forgeries[step.kind === 'forged' ? step.how : 0]!(original);
              expectAnswer(await deliver(forged.payload, forged.signature), 400);
              figures.forged++;
            }
            const after = await rowOf(id);
            expectSame(
              [after.status, after.updatedAt.toISOString(), after.paidAt?.toISOString()],
              [before.status, before.updatedAt.toISOString(), before.paidAt?.toISOString()],
              'row after a replay or forgery',
            );
          }
          expectSame((await rowOf(id)).status, status, `status after ${step.kind}`);
        }
        for (const payload of sent)
          expectSame(await processed(eventIdOf(payload)), 1, 'processed rows per event');
      }),
      { numRuns: sequences, endOnFailure: true },
    );
    results.oneTime = true;
  });

  it('recurring links reach the same state whatever order the invoice events arrive in', async () => {
    const day = 86_400;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        async (months, firstFailed, renewalFailed, shuffleSeed) => {
          figures.sequences++;
          const id = await createLink(true);
          const ref = await openCheckout(id);
          const base = Math.floor(Date.now() / 1000) + 30 * day;
          const invoice = (end: number, reason: string) => ({
            id: `in_${id}_${end}`,
            object: 'invoice',
            billing_reason: reason,
            amount_paid: 1000,
            currency: 'usd',
            parent: {
              type: 'subscription_details',
              subscription_details: { subscription: ref, metadata: { subscriptionId: id } },
            },
            lines: {
              object: 'list',
              data: [{ id: 'il_1', object: 'line_item', period: { start: end - 30 * day, end } }],
            },
          });
          const ends = months.map((m) => base + m * 30 * day);
          const events = ends.map((end, i) =>
            eventOf('invoice.paid', invoice(end, i === 0 ? 'subscription_create' : 'subscription_cycle')),
          );
          if (firstFailed)
            events.push(eventOf('invoice.payment_failed', invoice(base, 'subscription_create')));
          if (renewalFailed)
            events.push(eventOf('invoice.payment_failed', invoice(base + 400 * day, 'subscription_cycle')));
          // A seeded shuffle: fast-check shrinks the seed, and the order is reproducible from it.
          const order = events
            .map((e, i) => ({ e, k: (shuffleSeed * 7919 + i * 104729) % 1000003 }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.e);
          for (const payload of order) {
            expectAnswer(await deliver(payload, sign(payload)), 200, { received: true, duplicate: false });
            figures.delivered++;
            figures.applied++;
          }
          figures.permutations++;
          const row = await rowOf(id);
          expectSame(
            [row.status, Math.floor(row.expiredAt.getTime() / 1000)],
            [2, Math.max(...ends)],
            'state after all invoices',
          );
          // And once more, all replayed in reverse: nothing moves.
          for (const payload of [...order].reverse()) {
            expectAnswer(await deliver(payload, sign(payload)), 200, { received: true, duplicate: true });
            figures.replays++;
          }
          expectSame(
            (await rowOf(id)).updatedAt.toISOString(),
            row.updatedAt.toISOString(),
            'row after replaying every invoice',
          );
        },
      ),
      { numRuns: sequences, endOnFailure: true },
    );
    results.recurring = true;
  });

  it('refuses an invoice.paid for a link whose checkout was never opened: the link stays payable', async () => {
    const id = await createLink(true);
    const end = Math.floor(Date.now() / 1000) + 40 * 86_400;
    const payload = eventOf('invoice.paid', {
      id: `in_early_${id}`,
      object: 'invoice',
      billing_reason: 'subscription_create',
      amount_paid: 1000,
      currency: 'usd',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: 'sub_unknown', metadata: { subscriptionId: id } },
      },
      lines: {
        object: 'list',
        data: [{ id: 'il_1', object: 'line_item', period: { start: end - 30 * 86_400, end } }],
      },
    });
    // Answered (Stripe must not retry it for days), recorded as refused, not applied.
    expect((await deliver(payload, sign(payload))).statusCode).toBe(200);
    figures.delivered++;
    figures.refused++;
    expect((await rowOf(id)).status).toBe(1);
    const [recorded] = await t.database.db
      .select({ type: processedPaymentEvents.type })
      .from(processedPaymentEvents)
      .where(eq(processedPaymentEvents.id, eventIdOf(payload)));
    expect(recorded?.type).toMatch(/^invoice\.paid refused: /);
    // The customer can still pay it.
    await openCheckout(id);
    results.earlyInvoice = true;
  });

  it('a payment_failed that arrives after the payment, even freshly signed, leaves the link Complete', async () => {
    const id = await createLink();
    const ref = await openCheckout(id);
    const succeeded = eventOf('payment_intent.succeeded', {
      id: ref,
      object: 'payment_intent',
      ...paid,
      metadata: { subscriptionId: id },
    });
    const failed = eventOf('payment_intent.payment_failed', {
      id: ref,
      object: 'payment_intent',
      metadata: { subscriptionId: id },
      last_payment_error: { message: 'late' },
    });
    expect((await deliver(succeeded, sign(succeeded))).statusCode).toBe(200);
    const afterPaid = await rowOf(id);
    expect((await deliver(failed, sign(failed))).statusCode).toBe(200);
    figures.delivered += 2;
    figures.applied += 2;
    const after = await rowOf(id);
    expect(after).toMatchObject({ status: 2, lastPaymentError: null });
    expect(after.paidAt).toEqual(afterPaid.paidAt);
    results.staleFailure = true;
  });
});
