import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStandInBilling, metadataOf } from './stripe-stand-in-billing.ts';

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
};
export type Reply = { status?: number; body: unknown };
type Handler = (request: RecordedRequest) => Reply | undefined;

/**
 * A local HTTP stand-in for the parts of Stripe's API the provider uses. It records every request
 * (path, headers such as Idempotency-Key and Stripe-Version, the form-encoded body) and answers
 * with Stripe-shaped objects; a test can swap the answer of a route or an object's state.
 *
 * It refuses what real Stripe refuses where it matters to us: a request without the secret key
 * (401), a POST whose body is not form-encoded, and an idempotency key used again with other
 * parameters (400); a key used again with the same parameters gets the first answer again, as
 * Stripe replays it. Recurring plans have invoices (`renew` makes the next period's, paid or
 * failed), which can be paid (`POST /v1/invoices/:id/pay`, declined after `declineNextPayment`),
 * and subscriptions can pause collection, cancel at period end or now; Billing Portal sessions
 * are made for known customers only.
 */
export async function startStripeStandIn({
  secretKey = 'sk_test_standin',
  now = () => new Date(),
}: { secretKey?: string; now?: () => Date } = {}) {
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
  const idempotent = new Map<string, { fingerprint: string; reply: Reply }>();
  let seq = 0;
  let override: Handler | null = null;

  const error = (status: number, message: string, extra: object = {}): Reply => ({
    status,
    body: { error: { type: 'invalid_request_error', message, ...extra } },
  });
  const billing = createStandInBilling({
    seconds: () => Math.floor(now().getTime() / 1000),
    nextId: () => ++seq,
    error,
  });

  const route = (r: RecordedRequest): Reply => {
    const { method, path, form } = r;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = `pi_test_${++seq}`;
      const intent = {
        id,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_standin`,
        amount: Number(form.get('amount')),
        metadata: metadataOf(form),
        last_payment_error: null,
      };
      intents.set(id, intent);
      return { body: { object: 'payment_intent', currency: form.get('currency'), ...intent } };
    }
    const m = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path);
    if (m) {
      const intent = intents.get(m[1]!);
      if (!intent) return error(404, `No such payment_intent: '${m[1]}'`);
      if (m[2]) intent.status = 'canceled';
      return { body: { object: 'payment_intent', currency: 'usd', ...intent } };
    }
    return billing.route(r) ?? error(404, `Unrecognized request URL (${method}: ${path})`);
  };

  /** What Stripe checks before a request reaches its resource. */
  const gate = (r: RecordedRequest, rawBody: string, contentType: string | undefined): Reply | null => {
    if (r.headers.authorization !== `Bearer ${secretKey}`)
      return {
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      };
    if (r.method === 'POST' && rawBody && !contentType?.startsWith('application/x-www-form-urlencoded'))
      return error(400, 'Invalid request: the body must be form-encoded (application/x-www-form-urlencoded)');
    return null;
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
      const key = req.headers['idempotency-key'];
      const keyed = typeof key === 'string' && recorded.method === 'POST';
      const fingerprint = `${recorded.method} ${recorded.path} ${text}`;
      const seen = keyed ? idempotent.get(key) : undefined;
      let replayed = false;
      const answer = (): Reply => {
        if (seen && seen.fingerprint !== fingerprint)
          return error(
            400,
            'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            { type: 'idempotency_error' },
          );
        if (seen) {
          replayed = true;
          return seen.reply;
        }
        const fresh = route(recorded);
        // Stripe keeps the answer of a keyed request it processed (not a server error, which may
        // be retried with the same key).
        if (keyed && (fresh.status ?? 200) < 500) idempotent.set(key, { fingerprint, reply: fresh });
        return fresh;
      };
      // A test's override stands for Stripe itself misbehaving: before any replay.
      const reply = gate(recorded, text, req.headers['content-type']) ?? override?.(recorded) ?? answer();
      res.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        'request-id': `req_${seq}`,
        'stripe-should-retry': 'false',
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
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
    ...billing,
    /** Answers matching requests differently until reset with null (which also ends any declines). */
    setOverride(handler: Handler | null) {
      override = handler;
      if (!handler) billing.resetDeclines();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
