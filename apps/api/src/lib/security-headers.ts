import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/*
 * Security headers on every answer (docs/decisions/012). One CSP for everything the origin serves,
 * without any third-party host; the public checkout page (/plans, /plans/:id) is the only page
 * that loads Stripe.js, so only its HTML carries Stripe's hosts.
 */

const baseDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'connect-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  // Toasts and Bootstrap set inline styles.
  'style-src': ["'self'", "'unsafe-inline'"],
  'frame-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
} as const;

// Stripe.js, its frames (card fields, 3-D Secure) and its API.
const stripeDirectives = {
  ...baseDirectives,
  'script-src': ["'self'", 'https://js.stripe.com'],
  'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com'],
  'connect-src': ["'self'", 'https://api.stripe.com'],
};

const serialize = (directives: Record<string, readonly string[]>) =>
  Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');

export const contentSecurityPolicy = serialize(baseDirectives);
/** The console's CSP when the fleet map loads tiles from elsewhere (MAP_TILE_URL, decision 052). */
const consolePolicyWith = (imageSources: readonly string[]) =>
  imageSources.length
    ? serialize({ ...baseDirectives, 'img-src': [...baseDirectives['img-src'], ...imageSources] })
    : contentSecurityPolicy;
export const checkoutContentSecurityPolicy = serialize(stripeDirectives);

/** The SPA paths of the public checkout (apps/web routes 'plans/:id?'). */
export const isCheckoutPage = (url: string) => /^\/plans(\/[^/?#]*)?\/?(\?|#|$)/.test(url);

/** Answers that may be cached: the docs' static files and routes that set their own Cache-Control. */
const mayCache = (url: string) => url.startsWith('/api/docs');

/*
 * The same on every answer: what helmet's defaults send, minus the two set per request below (CSP,
 * HSTS) and with no-referrer. Written as one object, not helmet's eleven middlewares a request:
 * those were 5 % of a heartbeat's time under load (decision 040).
 */
export const fixedSecurityHeaders = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
} as const;

export async function installSecurityHeaders(
  app: FastifyInstance,
  { mapImageSources = [] }: { mapImageSources?: readonly string[] } = {},
) {
  const consolePolicy = consolePolicyWith(mapImageSources);
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    reply.headers(fixedSecurityHeaders);
    reply.header(
      'content-security-policy',
      request.method === 'GET' && isCheckoutPage(request.url) ? checkoutContentSecurityPolicy : consolePolicy,
    );
    // request.protocol reads X-Forwarded-Proto only with TRUST_PROXY on, so a client cannot fake it.
    if (request.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    // API answers carry patient and user data: never stored by a browser or a shared cache. A route
    // serving a public, unguessable file (APK, avatar) sets its own Cache-Control and keeps it.
    const api = request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
    if (api && !mayCache(request.url) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
