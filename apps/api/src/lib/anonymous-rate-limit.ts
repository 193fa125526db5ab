import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { apiPaths } from '@app/contract/paths';
import { sharedAnonymousStore } from './anonymous-limit-store.ts';
import { TooManyRequestsError } from './errors.ts';
import type { RedisLink } from './redis-link.ts';
import { routeConfigOf } from './route-config.ts';
import './request-context.ts';

/*
 * Anonymous traffic, limited per client address (issue 18, docs/decisions/029). The public routes
 * (sign-in, password recovery, the checkout, the app's update check and download, enrolment) are
 * the ones anyone can call without a token, and each failure there used to write rows nobody can
 * delete. Each group of routes allows `perMinute` requests a minute per address; past that the
 * answer is 429 with Retry-After, before any work is done.
 *
 * Every public API route is limited unless exempt below, so a new public route is covered by default.
 * Exempt: Stripe's webhook (Stripe retries, from a few shared addresses, and signs every call),
 * the health check (load balancers and monitors poll it), and profile images (the console's own
 * <img> tags, several per page, from every user behind one hospital NAT).
 *
 * The counters are this process's memory, or Redis with REDIS_URL (lib/anonymous-limit-store.ts,
 * decision 073), so several API instances together allow `perMinute`, not `perMinute` each.
 */

const exempt = new Set<string>([
  apiPaths.subscriptionWebhook,
  apiPaths.health,
  apiPaths.profileImage(':name'),
]);

/** Routes that share one allowance: a sign-in with its code step counts as one thing a person does. */
const groups: Record<string, string> = {
  [apiPaths.login]: 'sign-in',
  [apiPaths.loginMfa]: 'sign-in',
  [apiPaths.loginMfaSetup]: 'sign-in',
  [apiPaths.loginMfaConfirm]: 'sign-in',
  [apiPaths.forgotPassword]: 'password',
  [apiPaths.verifyEmail]: 'password',
  [apiPaths.resendOtp]: 'password',
  [apiPaths.resetPassword]: 'password',
  [apiPaths.subscriptionDetail(':id')]: 'checkout',
  [apiPaths.checkout]: 'checkout',
  [apiPaths.subscriptionDemoPay]: 'checkout',
  [apiPaths.subscriptionReconcile]: 'checkout',
  [apiPaths.appUpdateLatest]: 'app-updates',
  [apiPaths.appUpdateApk(':id')]: 'app-updates',
  [apiPaths.appEnrol]: 'enrolment',
};

/** The address the limiter and the failure aggregation count by: an IPv6 /64 is one client. */
export const limiterAddress = (request: Pick<FastifyRequest, 'ip'>): string =>
  // A socket gone before the answer may have no address left: those requests count together.
  typeof request.ip === 'string' && request.ip ? normalizeIP(request.ip, 64) : 'unknown';

/** The group a request counts against, or null when it is not limited here. */
export function anonymousGroupOf(request: Pick<FastifyRequest, 'routeOptions'>): string | null {
  const config = routeConfigOf(request);
  const url = config.url;
  if (!url?.startsWith('/api/') || config.access !== 'public' || exempt.has(url)) return null;
  return groups[url] ?? 'public';
}

/** At most this many addresses tracked at once in memory (an LRU): bounded under a spray of addresses. */
const trackedAddresses = 10_000;

export async function installAnonymousRateLimit(
  app: FastifyInstance,
  { perMinute, redis, prefix }: { perMinute: number; redis: RedisLink | null; prefix: string },
) {
  // global: false, so the plugin adds no hook of its own; the hook below decides which routes count.
  await app.register(rateLimit, {
    global: false,
    max: perMinute,
    timeWindow: 60_000,
    // With REDIS_URL every instance counts in Redis, so an address gets `perMinute` in total (073).
    ...(redis
      ? { store: sharedAnonymousStore(redis, prefix, trackedAddresses) }
      : { cache: trackedAddresses }),
  });
  const limit = app.rateLimit({
    // request.ip honours TRUST_PROXY (lib/trust-proxy.ts): only the hops we trust can name the address.
    keyGenerator: (request) => `${anonymousGroupOf(request) ?? 'none'}|${limiterAddress(request)}`,
    errorResponseBuilder: (request, context) => {
      request.anonymousRateLimited = true;
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new TooManyRequestsError(
        `Too many requests from this address: try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
        seconds,
      );
    },
  });
  // Callback style: the signed-in and machine requests it skips pay no promise for it.
  app.addHook('onRequest', (request, reply, done) => {
    if (anonymousGroupOf(request) === null) return done();
    limit.call(app, request, reply).then(() => done(), done);
  });
}
