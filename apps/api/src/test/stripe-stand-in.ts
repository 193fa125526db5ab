import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
};
type Reply = { status?: number; body: unknown };
type Handler = (request: RecordedRequest) => Reply | undefined;

/**
 * A local HTTP stand-in for the parts of Stripe's API the provider uses. It records every request
 * (path, headers such as Idempotency-Key and Stripe-Version, the form-encoded body) and answers
 * with Stripe-shaped objects; a test can swap the answer of a route or an object's state.
 */
export async function startStripeStandIn() {
  const requests: RecordedRequest[] = [];
  const intents = new Map<
    string,
    {
      id: string;
      status: string;
      client_secret: string;
      amount: number;
      metadata: Record<string, string>;
      last_payment_error: unknown;
    }
  >();
  const subs = new Map<string, { id: string; status: string; current_period_end: number }>();
  let seq = 0;
  let override: Handler | null = null;

  const error = (status: number, message: string): Reply => ({
    status,
    body: { error: { type: 'invalid_request_error', message } },
  });

  const route = (r: RecordedRequest): Reply => {
    const fromOverride = override?.(r);
    if (fromOverride) return fromOverride;
    const { method, path, form } = r;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = `pi_test_${++seq}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const intent = {
        id,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_standin`,
        amount: Number(form.get('amount')),
        metadata,
        last_payment_error: null,
      };
      intents.set(id, intent);
      return { body: { object: 'payment_intent', currency: form.get('currency'), ...intent } };
    }
    let m = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path);
    if (m) {
      const intent = intents.get(m[1]!);
      if (!intent) return error(404, `No such payment_intent: '${m[1]}'`);
      if (m[2]) intent.status = 'canceled';
      return { body: { object: 'payment_intent', currency: 'usd', ...intent } };
    }
    if (method === 'POST' && path === '/v1/customers')
      return { body: { id: `cus_test_${++seq}`, object: 'customer', email: form.get('email') } };
    if (method === 'POST' && path === '/v1/products')
      return { body: { id: `prod_test_${++seq}`, object: 'product', name: form.get('name') } };
    if (method === 'POST' && path === '/v1/subscriptions') {
      const id = `sub_test_${++seq}`;
      subs.set(id, {
        id,
        status: 'incomplete',
        current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400,
      });
      return { body: subscriptionBody(id) };
    }
    m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (m) {
      if (!subs.has(m[1]!)) return error(404, `No such subscription: '${m[1]}'`);
      if (method === 'DELETE') subs.get(m[1]!)!.status = 'canceled';
      return { body: subscriptionBody(m[1]!) };
    }
    return error(404, `Unrecognized request URL (${method}: ${path})`);
  };

  const subscriptionBody = (id: string) => {
    const sub = subs.get(id)!;
    return {
      id,
      object: 'subscription',
      status: sub.status,
      metadata: {},
      items: {
        object: 'list',
        data: [{ id: `si_${id}`, object: 'subscription_item', current_period_end: sub.current_period_end }],
      },
      latest_invoice: {
        id: `in_${id}`,
        object: 'invoice',
        confirmation_secret: { client_secret: `pi_for_${id}_secret_standin`, type: 'payment_intent' },
      },
    };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const text = Buffer.concat(chunks).toString('utf8');
      const form = new URLSearchParams(req.method === 'GET' || req.method === 'DELETE' ? url.search : text);
      const recorded = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, form };
      requests.push(recorded);
      const reply = route(recorded);
      res.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        'request-id': `req_${seq}`,
        'stripe-should-retry': 'false',
      });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    intents,
    subscriptions: subs,
    /** Answers matching requests differently until reset with null. */
    setOverride(handler: Handler | null) {
      override = handler;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
