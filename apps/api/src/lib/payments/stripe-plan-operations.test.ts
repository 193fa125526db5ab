import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeStandIn, type RecordedRequest, type StripeStandIn } from '#api/test/stripe-stand-in.ts';
import { createStripeProvider } from './stripe-provider.ts';

/*
 * A recurring plan's operations (issue 34 item 5) through Stripe's API, against the local stand-in:
 * each request's method, path and form, and what the provider makes of Stripe's answers.
 */

let standIn: StripeStandIn;
let provider: ReturnType<typeof createStripeProvider>;
beforeAll(async () => {
  standIn = await startStripeStandIn();
  provider = createStripeProvider({
    secretKey: 'sk_test_standin',
    webhookSecret: 'whsec_x',
    apiUrl: standIn.url,
  });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.length = 0;
  standIn.setOverride(null);
});

const sent = () => standIn.requests.map((r) => `${r.method} ${r.path}`);
const invoice = (over: object = {}) => ({
  id: 'in_renewal_1',
  object: 'invoice',
  status: 'open',
  amount_paid: 0,
  hosted_invoice_url: 'https://invoice.stripe.test/in_renewal_1',
  lines: { object: 'list', data: [{ period: { start: 1_900_000_000, end: 1_902_592_000 } }] },
  ...over,
});
/** Answers a subscription with this latest invoice (expanded), and whatever `more` answers. */
const planWith = (
  latest: object | null,
  more: (r: RecordedRequest) => object | undefined = () => undefined,
) =>
  standIn.setOverride((r) => {
    const body = more(r);
    if (body) return { body };
    if (r.path === '/v1/subscriptions/sub_plan_1')
      return {
        body: { id: 'sub_plan_1', object: 'subscription', customer: 'cus_plan_1', latest_invoice: latest },
      };
    return undefined;
  });

describe("a Stripe plan's operations", () => {
  it('pauses collection until a date with invoices kept as drafts, and resumes it', async () => {
    planWith(null);
    await provider.pauseCollection('sub_plan_1', new Date('2030-01-31T23:59:59.999Z'));
    await provider.resumeCollection('sub_plan_1');
    expect(sent()).toEqual(['POST /v1/subscriptions/sub_plan_1', 'POST /v1/subscriptions/sub_plan_1']);
    const [pause, resume] = standIn.requests;
    expect(pause!.form.get('pause_collection[behavior]')).toBe('keep_as_draft');
    expect(pause!.form.get('pause_collection[resumes_at]')).toBe(
      String(Math.floor(Date.parse('2030-01-31T23:59:59.999Z') / 1000)),
    );
    expect(resume!.form.get('pause_collection')).toBe('');
  });

  it('cancels at the period end by flag, and now by deleting the subscription', async () => {
    planWith(null);
    await provider.cancelSubscription('sub_plan_1', true);
    expect(standIn.requests[0]!.form.get('cancel_at_period_end')).toBe('true');
    await provider.cancelSubscription('sub_plan_1', false);
    expect(sent()).toEqual(['POST /v1/subscriptions/sub_plan_1', 'DELETE /v1/subscriptions/sub_plan_1']);
  });

  it("retries by paying the plan's open invoice, and answers the invoice as the payment with its receipt", async () => {
    planWith(invoice(), (r) =>
      r.path === '/v1/invoices/in_renewal_1/pay' ? invoice({ status: 'paid', amount_paid: 9900 }) : undefined,
    );
    expect(await provider.retryPayment('sub_plan_1', null)).toEqual({
      state: 'succeeded',
      paymentRef: 'in_renewal_1',
      periodEnd: new Date(1_902_592_000 * 1000),
      amountCents: 9900,
      receiptUrl: 'https://invoice.stripe.test/in_renewal_1',
    });
    expect(sent()).toEqual(['GET /v1/subscriptions/sub_plan_1', 'POST /v1/invoices/in_renewal_1/pay']);
    expect(standIn.requests[0]!.form.get('expand[0]')).toBe('latest_invoice');
  });

  it("answers a declined card's message when the invoice cannot be paid, and refuses when none is open", async () => {
    standIn.setOverride((r) =>
      r.path === '/v1/invoices/in_renewal_1/pay'
        ? {
            status: 402,
            body: {
              error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
            },
          }
        : r.path === '/v1/subscriptions/sub_plan_1'
          ? { body: { id: 'sub_plan_1', object: 'subscription', latest_invoice: invoice() } }
          : undefined,
    );
    expect(await provider.retryPayment('sub_plan_1', null)).toEqual({
      state: 'failed',
      message: 'Your card was declined.',
    });
    planWith(invoice({ status: 'void' }));
    expect(await provider.retryPayment('sub_plan_1', null)).toEqual({
      state: 'failed',
      message: 'The plan has no open invoice to pay.',
    });
  });

  it("throws when Stripe fails otherwise (the service's 502)", async () => {
    standIn.setOverride(() => ({ status: 500, body: { error: { type: 'api_error', message: 'boom' } } }));
    await expect(provider.retryPayment('sub_plan_1', null)).rejects.toThrow();
  });

  it("opens a Billing Portal session on the card update flow for the plan's customer", async () => {
    planWith(null, (r) =>
      r.path === '/v1/billing_portal/sessions'
        ? { id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.test/session/bps_1' }
        : undefined,
    );
    expect(await provider.cardUpdateUrl('sub_plan_1', 'https://console.test/plans/abc')).toBe(
      'https://billing.stripe.test/session/bps_1',
    );
    expect(sent()).toEqual(['GET /v1/subscriptions/sub_plan_1', 'POST /v1/billing_portal/sessions']);
    const session = standIn.requests[1]!.form;
    expect(session.get('customer')).toBe('cus_plan_1');
    expect(session.get('return_url')).toBe('https://console.test/plans/abc');
    expect(session.get('flow_data[type]')).toBe('payment_method_update');
  });

  it("finds a PaymentIntent's charge receipt and an invoice's hosted page", async () => {
    standIn.setOverride((r) =>
      r.path === '/v1/payment_intents/pi_paid_1'
        ? {
            body: {
              id: 'pi_paid_1',
              object: 'payment_intent',
              latest_charge: {
                id: 'ch_1',
                object: 'charge',
                receipt_url: 'https://pay.stripe.test/receipts/ch_1',
              },
            },
          }
        : r.path === '/v1/invoices/in_renewal_1'
          ? { body: invoice({ status: 'paid' }) }
          : undefined,
    );
    expect(await provider.receiptUrl('pi_paid_1')).toBe('https://pay.stripe.test/receipts/ch_1');
    expect(standIn.requests[0]!.form.get('expand[0]')).toBe('latest_charge');
    expect(await provider.receiptUrl('in_renewal_1')).toBe('https://invoice.stripe.test/in_renewal_1');
  });
});
