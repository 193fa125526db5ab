import { and, eq, like } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionOperationPaths as paths } from '@app/contract/subscription-operations';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { postStripeWebhook, stripeEventJson } from '#api/test/stripe-events.ts';
import { startStripeStandIn, type StripeStandIn } from '#api/test/stripe-stand-in.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { machineWithSerial } from './subscription-test-requests.ts';

/*
 * Stripe, for real (issue 34 item 7), against the local stand-in of Stripe's API with webhooks
 * signed as Stripe signs them: a recurring plan renews and fails through its invoices
 * (invoice.paid: active with the new paid-through date; invoice.payment_failed: grace and a dunning
 * mail), grace pauses collection, a retry pays the open invoice, the card-update link is a Billing
 * Portal session, and the plan cancels at its period's end or now. Each receipt is the invoice's page.
 */

const webhookSecret = 'whsec_plan_lifecycle';
let standIn: StripeStandIn;
let t: TestApp;
let token: string;
beforeAll(async () => {
  standIn = await startStripeStandIn({ now: () => (t ? t.clock.now : new Date()) });
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

let eventSeq = 0;
/** Delivers a Stripe event about this object, signed with the webhook secret. */
async function deliver(type: string, object: object) {
  const payload = stripeEventJson(`evt_plan_${++eventSeq}`, type, object);
  const res = await postStripeWebhook(
    t,
    payload,
    Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const post = (url: string, payload?: object) =>
  t.injectAs(token, { method: 'POST', url, ...(payload ? { payload } : {}) });
const detailOf = async (id: string) =>
  (await t.injectAs(token, { method: 'GET', url: paths.detail(id) })).json().data;

let serial = 0;
/** A monthly plan paid through Stripe: created, checked out, its first invoice paid and announced. */
async function paidPlan() {
  const serialNumber = `SN-STRIPE-${++serial}`;
  const email = `stripe${serial}@example.test`;
  await machineWithSerial(t, serialNumber);
  const created = await t.injectAs(token, {
    method: 'POST',
    url: '/api/v1/admin/subscrption/add',
    payload: {
      fullName: 'Clinic',
      email,
      machineSerialNumber: serialNumber,
      amount: 99,
      isRecurring: true,
      planType: 'month',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data._id as string;
  const checkout = await t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/subscription/checkout',
    payload: { subcriptionId: id },
  });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const ref = [...standIn.subscriptions.values()].find((s) => s.metadata.subscriptionId === id)!.id;
  await deliver('invoice.paid', standIn.payFirstInvoice(ref));
  return { id, ref, email, serialNumber };
}

describe('a Stripe plan through its invoices', () => {
  it('renews on invoice.paid, fails into grace with a dunning mail, and a retry pays the open invoice', async () => {
    const plan = await paidPlan();
    let detail = await detailOf(plan.id);
    expect(detail.machine.licenceState).toBe('active');
    expect(detail.payments).toHaveLength(1);
    expect(detail.payments[0].receiptUrl).toMatch(/^https:\/\/invoice\.stripe\.com\//);

    const renewal = standIn.renew(plan.ref, 'paid');
    await deliver('invoice.paid', renewal);
    detail = await detailOf(plan.id);
    expect(detail.plan.paidThrough).toBe(new Date(renewal.lines.data[0]!.period.end * 1000).toISOString());
    expect(detail.payments).toHaveLength(2);
    expect(detail.timeline.map((e: { kind: string }) => e.kind)).toContain('renewed');

    const failed = standIn.renew(plan.ref, 'declined');
    await deliver('invoice.payment_failed', failed);
    detail = await detailOf(plan.id);
    expect(detail.machine.licenceState).toBe('grace');
    expect(detail.plan.renewalFailedAt).not.toBeNull();
    await t.app.licenceNotices.run();
    const dunning = await t.database.db
      .select()
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.to, plan.email), like(mailOutbox.subject, '%payment for your subscription failed')),
      );
    expect(dunning).toHaveLength(1);

    standIn.declineNextPayment('Your card has insufficient funds.');
    const refused = await post(paths.retry(plan.id));
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().msg).toBe('Payment retried: Your card has insufficient funds.');
    expect(refused.json().data.machine.licenceState).toBe('grace');

    const paid = await post(paths.retry(plan.id));
    expect(paid.json().msg).toBe('Payment retried: paid');
    expect(standIn.requests.filter((r) => r.path === `/v1/invoices/${failed.id}/pay`)).toHaveLength(2);
    expect(standIn.invoices.get(failed.id)!.status).toBe('paid');
    expect(paid.json().data.machine.licenceState).toBe('active');
    expect(paid.json().data.payments.map((p: { receiptUrl: string }) => p.receiptUrl)).toContain(
      failed.hosted_invoice_url,
    );
    // Stripe's own invoice.paid for the same invoice records nothing twice.
    await deliver('invoice.paid', standIn.invoice(failed.id));
    expect((await detailOf(plan.id)).payments).toHaveLength(3);
  });

  it('grace pauses collection (invoices kept as drafts) until its day; resume collects again', async () => {
    const plan = await paidPlan();
    const until = new Date(t.clock.now.getTime() + 20 * 86_400_000).toISOString().slice(0, 10);
    const res = await post(paths.grace(plan.id), { until, reason: 'Clinic closed for works' });
    expect(res.statusCode, res.body).toBe(200);
    expect(standIn.subscriptions.get(plan.ref)!.pause_collection).toEqual({
      behavior: 'keep_as_draft',
      resumes_at: Math.floor(Date.parse(`${until}T23:59:59.999Z`) / 1000),
    });
    expect(standIn.renew(plan.ref, 'paid').status).toBe('draft');
    expect((await post(paths.resume(plan.id))).statusCode).toBe(200);
    expect(standIn.subscriptions.get(plan.ref)!.pause_collection).toBeNull();
  });

  it("mails a Billing Portal session to update the card, and cancels at the period's end or now", async () => {
    const plan = await paidPlan();
    const sent = await post(paths.cardUpdate(plan.id));
    expect(sent.statusCode, sent.body).toBe(200);
    const session = standIn.portalSessions.at(-1)!;
    expect(session).toMatchObject({
      flow: 'payment_method_update',
      return_url: `${t.config.publicUrl}/plans/${plan.id}`,
    });
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.to, plan.email), eq(mailOutbox.subject, 'Update the card for your subscription')),
      );
    expect(mail!.text).toContain(`https://billing.stripe.com/p/session/test_${session.id}`);

    expect((await post(paths.cancel(plan.id), { when: 'period-end' })).statusCode).toBe(200);
    expect(standIn.subscriptions.get(plan.ref)!.cancel_at_period_end).toBe(true);
    const now = await post(paths.cancel(plan.id), { when: 'now', reason: 'Machine returned' });
    expect(now.statusCode).toBe(409);

    const other = await paidPlan();
    const ended = await post(paths.cancel(other.id), { when: 'now', reason: 'Machine returned' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(standIn.subscriptions.get(other.ref)!.status).toBe('canceled');
    expect(ended.json().data.machine.licenceState).toBe('grace');
    // Stripe's own event about it changes nothing more.
    await deliver('customer.subscription.deleted', {
      id: other.ref,
      object: 'subscription',
      metadata: { subscriptionId: other.id },
    });
    expect((await detailOf(other.id)).timeline.filter((e: { kind: string }) => e.kind === 'ended')).toEqual(
      [],
    );
  });
});
