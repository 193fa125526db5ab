import Stripe from 'stripe';
import type { PaymentProvider, RetryOutcome } from './payment-provider.ts';

/*
 * A recurring plan's operations through Stripe's own API (issue 34 items 5 and 7): pause and resume
 * collection, cancel at the period's end or now, retry by paying the open invoice, a Billing Portal
 * session to update the card, and a payment's receipt.
 */

export const toDate = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);
export const idOf = (v: string | { id: string } | null | undefined) =>
  typeof v === 'string' ? v : (v?.id ?? null);

/** The end of the newest period an invoice pays for. */
export function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  const ends = (invoice.lines?.data ?? []).map((l) => l.period?.end ?? 0);
  return toDate(ends.length ? Math.max(...ends) : null);
}

type PlanOperations = Pick<
  PaymentProvider,
  | 'pauseCollection'
  | 'resumeCollection'
  | 'cancelSubscription'
  | 'retryPayment'
  | 'cardUpdateUrl'
  | 'receiptUrl'
>;

export function stripePlanOperations(stripe: Stripe): PlanOperations {
  /** The plan's latest invoice: a failed renewal's is open until paid. */
  async function latestInvoice(ref: string): Promise<Stripe.Invoice | null> {
    const subscription = await stripe.subscriptions.retrieve(ref, { expand: ['latest_invoice'] });
    const invoice = subscription.latest_invoice;
    return invoice && typeof invoice === 'object' ? invoice : null;
  }

  const paidInvoice = (invoice: Stripe.Invoice): RetryOutcome => ({
    state: 'succeeded',
    paymentRef: invoice.id!,
    periodEnd: invoicePeriodEnd(invoice),
    amountCents: invoice.amount_paid ?? null,
    receiptUrl: invoice.hosted_invoice_url ?? null,
  });

  return {
    async pauseCollection(ref, until) {
      // Invoices made while paused stay drafts, to be collected once the grace is over.
      await stripe.subscriptions.update(ref, {
        pause_collection: { behavior: 'keep_as_draft', resumes_at: Math.floor(until.getTime() / 1000) },
      });
    },

    async resumeCollection(ref) {
      await stripe.subscriptions.update(ref, { pause_collection: '' });
    },

    async cancelSubscription(ref, atPeriodEnd) {
      if (atPeriodEnd) await stripe.subscriptions.update(ref, { cancel_at_period_end: true });
      else await stripe.subscriptions.cancel(ref);
    },

    async retryPayment(ref) {
      const invoice = await latestInvoice(ref);
      if (invoice?.status === 'paid') return paidInvoice(invoice);
      if (!invoice?.id || invoice.status !== 'open')
        return { state: 'failed', message: 'The plan has no open invoice to pay.' };
      try {
        return paidInvoice(await stripe.invoices.pay(invoice.id));
      } catch (error) {
        // A refused card is an answer; anything else (Stripe down) is the caller's 502.
        if (error instanceof Stripe.errors.StripeCardError)
          return { state: 'failed', message: error.message || 'Payment failed' };
        throw error;
      }
    },

    async cardUpdateUrl(ref, returnUrl) {
      const subscription = await stripe.subscriptions.retrieve(ref);
      const customer = idOf(subscription.customer);
      if (!customer) throw new Error(`Stripe subscription ${ref} has no customer`);
      const session = await stripe.billingPortal.sessions.create({
        customer,
        return_url: returnUrl,
        flow_data: { type: 'payment_method_update' },
      });
      return session.url;
    },

    async receiptUrl(paymentRef) {
      if (paymentRef.startsWith('in_')) {
        const invoice = await stripe.invoices.retrieve(paymentRef);
        return invoice.hosted_invoice_url ?? null;
      }
      const intent = await stripe.paymentIntents.retrieve(paymentRef, { expand: ['latest_charge'] });
      const charge = intent.latest_charge;
      return charge && typeof charge === 'object' ? charge.receipt_url : null;
    },
  };
}
