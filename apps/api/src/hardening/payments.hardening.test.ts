// Payment webhooks under abuse: replays, out-of-order delivery, concurrent duplicates and forged,
// tampered, stale or missing signatures, as random sequences checked against a model of the link's
// status. The single-event cases (one replay, one forged signature) are in
// modules/subscriptions/stripe-checkout.test.ts; this suite drives many sequences and reports figures.
//
// PAYMENT_SEQUENCES (default 40) sets the random sequences per property.
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processedPaymentEvents } from '../db/schema/subscriptions.ts';
import { startStripeStandIn, type StripeStandIn } from '../test/stripe-stand-in.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { paymentsHarness, stepArb } from './payments-harness.ts';
import { newPaymentFigures, writePaymentsResult } from './payments-result.ts';

const sequences = Number(process.env.PAYMENT_SEQUENCES ?? 40);
const secret = 'whsec_hardening';
let standIn: StripeStandIn;
let t: TestApp;
let token: string;

const figures = newPaymentFigures();
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
  writePaymentsResult(figures, results);
  await t.close();
  await standIn.close();
});

const {
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
} = paymentsHarness({
  current: () => ({ t, token }),
  webhookSecret: secret,
  onMismatch: () => figures.mismatches++,
  onUnexpectedAnswer: () => figures.unexpectedAnswers++,
});

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
