import type { RecordedRequest, Reply } from './stripe-stand-in.ts';

type StandInInvoice = {
  id: string;
  subscription: string;
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  billing_reason: 'subscription_create' | 'subscription_cycle';
  amount_due: number;
  amount_paid: number;
  period_start: number;
  period_end: number;
  attempt_count: number;
};

type StandInSubscription = {
  id: string;
  status: string;
  customer: string;
  amount: number;
  interval: string;
  current_period_end: number;
  metadata: Record<string, string>;
  cancel_at_period_end: boolean;
  pause_collection: { behavior: string; resumes_at: number | null } | null;
  latest_invoice: string;
};

const day = 86_400;
export const metadataOf = (form: URLSearchParams) => {
  const metadata: Record<string, string> = {};
  for (const [k, v] of form) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]!] = v;
  }
  return metadata;
};

/**
 * The billing half of the Stripe stand-in (stripe-stand-in.ts): customers, products, recurring
 * plans with their invoices (paid by the customer's first payment, by `renew` or by
 * `POST /v1/invoices/:id/pay`), pausing collection, cancelling at the period's end or now, and
 * Billing Portal sessions for known customers. `route` answers null for a path it does not serve.
 */
export function createStandInBilling({
  seconds,
  nextId,
  error,
}: {
  seconds: () => number;
  nextId: () => number;
  error: (status: number, message: string, extra?: object) => Reply;
}) {
  const subs = new Map<string, StandInSubscription>();
  const invoices = new Map<string, StandInInvoice>();
  const customers = new Map<string, { id: string; email: string | null }>();
  const portalSessions: { id: string; customer: string; return_url: string; flow: string | null }[] = [];
  let declines: string[] = [];

  const newInvoice = (
    sub: StandInSubscription,
    reason: StandInInvoice['billing_reason'],
    start: number,
    status: StandInInvoice['status'],
  ) => {
    const invoice: StandInInvoice = {
      id: `in_test_${nextId()}`,
      subscription: sub.id,
      customer: sub.customer,
      status,
      billing_reason: reason,
      amount_due: sub.amount,
      amount_paid: status === 'paid' ? sub.amount : 0,
      period_start: start,
      period_end: start + (sub.interval === 'year' ? 365 : 30) * day,
      attempt_count: status === 'draft' ? 0 : 1,
    };
    invoices.set(invoice.id, invoice);
    sub.latest_invoice = invoice.id;
    return invoice;
  };

  /** An invoice as Stripe shows it (in answers and in webhook events). */
  const invoiceBody = (invoice: StandInInvoice) => {
    const sub = subs.get(invoice.subscription)!;
    return {
      id: invoice.id,
      object: 'invoice',
      status: invoice.status,
      billing_reason: invoice.billing_reason,
      customer: invoice.customer,
      currency: 'usd',
      amount_due: invoice.amount_due,
      amount_paid: invoice.amount_paid,
      attempt_count: invoice.attempt_count,
      hosted_invoice_url: `https://invoice.stripe.com/i/acct_standin/test_${invoice.id}`,
      last_finalization_error: null,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      lines: {
        object: 'list',
        data: [
          {
            id: `il_${invoice.id}`,
            object: 'line_item',
            amount: invoice.amount_due,
            period: { start: invoice.period_start, end: invoice.period_end },
          },
        ],
      },
      confirmation_secret: { client_secret: `pi_for_${sub.id}_secret_standin`, type: 'payment_intent' },
    };
  };

  const subscriptionBody = (id: string, expand: string[]) => {
    const sub = subs.get(id)!;
    const latest = invoices.get(sub.latest_invoice)!;
    return {
      id,
      object: 'subscription',
      status: sub.status,
      customer: sub.customer,
      metadata: sub.metadata,
      cancel_at_period_end: sub.cancel_at_period_end,
      pause_collection: sub.pause_collection,
      items: {
        object: 'list',
        data: [{ id: `si_${id}`, object: 'subscription_item', current_period_end: sub.current_period_end }],
      },
      latest_invoice: expand.some((e) => e.startsWith('latest_invoice')) ? invoiceBody(latest) : latest.id,
    };
  };

  const expandOf = (form: URLSearchParams) =>
    [...form].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);

  const route = ({ method, path, form }: RecordedRequest): Reply | null => {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: `cus_test_${nextId()}`, email: form.get('email') };
      customers.set(customer.id, customer);
      return { body: { object: 'customer', ...customer } };
    }
    if (method === 'POST' && path === '/v1/products')
      return { body: { id: `prod_test_${nextId()}`, object: 'product', name: form.get('name') } };
    if (method === 'POST' && path === '/v1/subscriptions') {
      const customer = form.get('customer') ?? '';
      if (!customers.has(customer))
        return error(400, `No such customer: '${customer}'`, { param: 'customer' });
      const sub: StandInSubscription = {
        id: `sub_test_${nextId()}`,
        status: 'incomplete',
        customer,
        amount: Number(form.get('items[0][price_data][unit_amount]')),
        interval: form.get('items[0][price_data][recurring][interval]') ?? 'month',
        current_period_end: seconds() + 30 * day,
        metadata: metadataOf(form),
        cancel_at_period_end: false,
        pause_collection: null,
        latest_invoice: '',
      };
      subs.set(sub.id, sub);
      const first = newInvoice(sub, 'subscription_create', seconds(), 'open');
      sub.current_period_end = first.period_end;
      return { body: subscriptionBody(sub.id, expandOf(form)) };
    }
    m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (m) {
      const sub = subs.get(m[1]!);
      if (!sub) return error(404, `No such subscription: '${m[1]}'`);
      if (method === 'DELETE') {
        sub.status = 'canceled';
        sub.pause_collection = null;
      }
      if (method === 'POST') {
        if (sub.status === 'canceled')
          return error(400, 'A canceled subscription can only update its cancellation_details and metadata.');
        const cancel = form.get('cancel_at_period_end');
        if (cancel !== null) {
          if (cancel !== 'true' && cancel !== 'false')
            return error(400, 'Invalid boolean: ' + cancel, { param: 'cancel_at_period_end' });
          sub.cancel_at_period_end = cancel === 'true';
        }
        if (form.get('pause_collection') === '') sub.pause_collection = null;
        const behavior = form.get('pause_collection[behavior]');
        if (behavior !== null) {
          if (!['keep_as_draft', 'mark_uncollectible', 'void'].includes(behavior))
            return error(400, `Invalid pause_collection[behavior]: ${behavior}`, {
              param: 'pause_collection[behavior]',
            });
          const resumesAt = form.get('pause_collection[resumes_at]');
          if (resumesAt !== null && !(Number(resumesAt) > seconds()))
            return error(400, 'pause_collection[resumes_at] must be in the future', {
              param: 'pause_collection[resumes_at]',
            });
          sub.pause_collection = { behavior, resumes_at: resumesAt === null ? null : Number(resumesAt) };
        }
      }
      return { body: subscriptionBody(sub.id, expandOf(form)) };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const data = [...invoices.values()]
        .filter((i) => !form.get('subscription') || i.subscription === form.get('subscription'))
        .filter((i) => !form.get('status') || i.status === form.get('status'))
        .reverse()
        .slice(0, Number(form.get('limit') ?? 10))
        .map(invoiceBody);
      return { body: { object: 'list', url: '/v1/invoices', has_more: false, data } };
    }
    m = /^\/v1\/invoices\/([^/]+)(\/pay)?$/.exec(path);
    if (m) {
      const invoice = invoices.get(m[1]!);
      if (!invoice) return error(404, `No such invoice: '${m[1]}'`);
      if (m[2] && method === 'POST') {
        if (invoice.status === 'paid')
          return error(400, 'Invoice is already paid', { code: 'invoice_already_paid' });
        if (invoice.status !== 'open')
          return error(400, `You can only pay an open invoice. This invoice is ${invoice.status}.`);
        invoice.attempt_count += 1;
        const declined = declines.shift();
        if (declined !== undefined)
          return {
            status: 402,
            body: { error: { type: 'card_error', code: 'card_declined', message: declined } },
          };
        invoice.status = 'paid';
        invoice.amount_paid = invoice.amount_due;
        const sub = subs.get(invoice.subscription)!;
        sub.status = 'active';
        sub.current_period_end = Math.max(sub.current_period_end, invoice.period_end);
      }
      return { body: invoiceBody(invoice) };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = form.get('customer') ?? '';
      if (!customers.has(customer))
        return error(400, `No such customer: '${customer}'`, { param: 'customer' });
      const returnUrl = form.get('return_url');
      if (returnUrl !== null && !/^https?:\/\//.test(returnUrl))
        return error(400, 'Not a valid URL', { param: 'return_url' });
      const session = {
        id: `bps_test_${nextId()}`,
        customer,
        return_url: returnUrl ?? '',
        flow: form.get('flow_data[type]'),
      };
      portalSessions.push(session);
      return {
        body: {
          object: 'billing_portal.session',
          ...session,
          url: `https://billing.stripe.com/p/session/test_${session.id}`,
        },
      };
    }
    return null;
  };

  return {
    route,
    subscriptions: subs,
    invoices,
    portalSessions,
    /** The invoice as Stripe shows it, e.g. as the object of an `invoice.*` webhook event. */
    invoice: (id: string) => invoiceBody(invoices.get(id)!),
    /** Stripe paid the first invoice (the customer's card on the checkout): the plan is active. */
    payFirstInvoice(subscriptionId: string) {
      const sub = subs.get(subscriptionId)!;
      const first = invoices.get(sub.latest_invoice)!;
      Object.assign(first, { status: 'paid', amount_paid: first.amount_due });
      sub.status = 'active';
      return invoiceBody(first);
    },
    /**
     * The plan's next period begins: Stripe makes its invoice and tries the card. Paid, the period
     * moves on; declined, the invoice stays open and the plan is `past_due`; with collection paused
     * (keep_as_draft) it stays a draft and nobody is charged.
     */
    renew(subscriptionId: string, outcome: 'paid' | 'declined') {
      const sub = subs.get(subscriptionId)!;
      const paused = sub.pause_collection?.behavior === 'keep_as_draft';
      const status = paused ? 'draft' : outcome === 'paid' ? 'paid' : 'open';
      const invoice = newInvoice(sub, 'subscription_cycle', sub.current_period_end, status);
      if (status === 'paid') sub.current_period_end = invoice.period_end;
      if (status === 'open') sub.status = 'past_due';
      return invoiceBody(invoice);
    },
    /** The next invoice payment is declined with this message. */
    declineNextPayment(message = 'Your card was declined.') {
      declines.push(message);
    },
    resetDeclines() {
      declines = [];
    },
  };
}
