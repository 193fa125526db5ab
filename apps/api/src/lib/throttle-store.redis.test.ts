import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { redisRelay } from '../test/redis-relay.ts';
import { createTestApp, testAdmin, type TestApp } from '../test/test-app.ts';
import { createAttemptLimiter, createBackoffLimiter } from './attempt-limiter.ts';
import { createRedisLink } from './redis-link.ts';
import { createRedisThrottleStore } from './redis-throttle-store.ts';
import { createMemoryThrottleStore, type ThrottleStore } from './throttle-store.ts';

const redisUrl = process.env.REDIS_URL!;
const prefix = () => `test-${randomBytes(6).toString('hex')}:`;
const closing: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const c of closing) await c.close();
});

async function redisStore(
  url = redisUrl,
  p = prefix(),
  log?: { warn: (...a: unknown[]) => void; info: (...a: unknown[]) => void },
) {
  const link = createRedisLink({ url, log: log as never });
  await link.ready;
  closing.push(link);
  return createRedisThrottleStore({ link, prefix: p });
}

const stores: Array<[string, () => Promise<ThrottleStore>]> = [
  ['memory', async () => createMemoryThrottleStore()],
  ['Redis', () => redisStore()],
];

describe.each(stores)('the %s throttle store', (_name, make) => {
  it('keeps a sliding window: entries after the cutoff count, the oldest is known, older ones go', async () => {
    const store = await make();
    expect(await store.window('w', 0)).toEqual({ count: 0, oldest: null });
    await store.addToWindow('w', 1000, 60_000);
    await store.addToWindow('w', 1000, 60_000);
    await store.addToWindow('w', 2000, 60_000);
    expect(await store.window('w', 0)).toEqual({ count: 3, oldest: 1000 });
    expect(await store.window('w', 1000)).toEqual({ count: 1, oldest: 2000 });
    // What the cutoff removed stays removed.
    expect(await store.window('w', 0)).toEqual({ count: 1, oldest: 2000 });
    expect(await store.window('other', 0)).toEqual({ count: 0, oldest: null });
  });

  it('counts a streak of failures with the last one’s time, and forgets a key', async () => {
    const store = await make();
    expect(await store.streak('s')).toBeNull();
    await store.extendStreak('s', 5000, 60_000);
    await store.extendStreak('s', 7000, 60_000);
    expect(await store.streak('s')).toEqual({ count: 2, last: 7000 });
    await store.addToWindow('w2', 1, 60_000);
    await store.forget('s');
    await store.forget('w2');
    expect(await store.streak('s')).toBeNull();
    expect(await store.window('w2', 0)).toEqual({ count: 0, oldest: null });
  });
});

describe.each(stores)('count-first limiters on the %s store', (_name, make) => {
  it('grant exactly the limit to 60 parallel reservations, and a refund frees one slot', async () => {
    const store = await make();
    const limiter = createAttemptLimiter({ name: 'burst', max: 5, windowMs: 60_000, now: () => 9000, store });
    const all = await Promise.all(Array.from({ length: 60 }, () => limiter.reserve('k')));
    const granted = all.filter((r) => r.wait === 0);
    expect(granted).toHaveLength(5);
    expect(all.filter((r) => r.wait === 60)).toHaveLength(55);
    await granted[0]!.refund();
    expect(await limiter.blockedFor('k')).toBe(0);
    expect((await Promise.all([limiter.reserve('k'), limiter.reserve('k')])).map((r) => r.wait)).toEqual([
      0, 60,
    ]);
  });

  it('let a parallel burst past a back-off only for its free tries', async () => {
    const store = await make();
    const limiter = createBackoffLimiter({
      name: 'burst-backoff',
      free: 5,
      baseMs: 1000,
      capMs: 30_000,
      forgetMs: 60_000,
      now: () => 9000,
      store,
    });
    const all = await Promise.all(Array.from({ length: 60 }, () => limiter.reserve('k')));
    expect(all.filter((r) => r.wait === 0)).toHaveLength(5);
    expect(all.filter((r) => r.wait === 1)).toHaveLength(55);
  });
});

describe('throttling across API instances with one Redis', () => {
  it('two limiters on one Redis prefix count together; another prefix starts from nothing', async () => {
    const shared = prefix();
    const [a, b, elsewhere] = [
      await redisStore(redisUrl, shared),
      await redisStore(redisUrl, shared),
      await redisStore(),
    ];
    const now = () => 1_000_000;
    const on = (store: ThrottleStore) =>
      createAttemptLimiter({ name: 'x', max: 3, windowMs: 60_000, now, store });
    await on(a).fail('k');
    await on(b).fail('k');
    await on(a).fail('k');
    expect(await on(b).blockedFor('k')).toBe(60);
    expect(await on(elsewhere).blockedFor('k')).toBe(0);
    const backoff = (store: ThrottleStore) =>
      createBackoffLimiter({ name: 'y', free: 1, baseMs: 4000, capMs: 30_000, forgetMs: 60_000, now, store });
    await backoff(a).fail('k');
    await backoff(b).fail('k');
    expect(await backoff(a).blockedFor('k')).toBe(8);
    await backoff(b).reset('k');
    expect(await backoff(a).blockedFor('k')).toBe(0);
  });

  it('a wrong-password run split over two API instances is throttled on both', async () => {
    const shared = prefix();
    const apps: TestApp[] = [];
    try {
      apps.push(await createTestApp({ REDIS_PREFIX: shared }), await createTestApp({ REDIS_PREFIX: shared }));
      const wrong = (t: TestApp) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.login,
          payload: { email: testAdmin.email, password: 'wrong-password' },
          remoteAddress: '10.9.9.9',
        });
      // The per account-and-address limit is 5 in 15 minutes: 3 on one instance, 2 on the other.
      for (const t of [apps[0]!, apps[0]!, apps[1]!, apps[0]!, apps[1]!])
        expect((await wrong(t)).statusCode).toBe(401);
      const blocked = await apps[1]!.app.inject({
        method: 'POST',
        url: apiPaths.login,
        payload: { ...testAdmin },
        remoteAddress: '10.9.9.9',
      });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // From another address only the account's short back-off (also shared) holds it back, never
      // the 15-minute block of the failing address.
      const other = await apps[0]!.app.inject({
        method: 'POST',
        url: apiPaths.login,
        payload: { ...testAdmin },
        remoteAddress: '10.9.9.10',
      });
      expect(other.statusCode).toBe(429);
      expect(Number(other.headers['retry-after'])).toBeLessThanOrEqual(30);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(30);
      apps[0]!.clock.advance(31_000);
      const later = await apps[0]!.app.inject({
        method: 'POST',
        url: apiPaths.login,
        payload: { ...testAdmin },
        remoteAddress: '10.9.9.10',
      });
      expect(later.statusCode, later.body).toBe(200);
    } finally {
      for (const t of apps) await t.close();
    }
  });
});

describe('when Redis does not answer', () => {
  it('starts anyway and throttles in memory, saying so once in the log', async () => {
    const warnings: unknown[] = [];
    // Port 1: nothing listens there.
    const store = await redisStore('redis://127.0.0.1:1', prefix(), {
      warn: (...a) => warnings.push(a),
      info: () => {},
    });
    const limiter = createAttemptLimiter({ name: 'x', max: 2, windowMs: 60_000, now: () => 5000, store });
    await limiter.fail('k');
    await limiter.fail('k');
    expect(await limiter.blockedFor('k')).toBe(60);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0])).toContain('Redis does not answer');
  });

  it('counts in memory during an outage and in Redis again once it is back', async () => {
    const relay = await redisRelay(new URL(redisUrl));
    closing.push(relay);
    const logs: string[] = [];
    const p = prefix();
    const store = await redisStore(relay.url, p, {
      warn: (_o, m) => logs.push(String(m)),
      info: (m) => logs.push(String(m)),
    });
    const direct = await redisStore(redisUrl, p);
    await store.addToWindow('k', 1, 60_000);
    expect(await direct.window('k', 0)).toEqual({ count: 1, oldest: 1 });

    await relay.cut();
    await store.addToWindow('k', 2, 60_000);
    // Kept in this process meanwhile; Redis did not get it.
    expect(await store.window('k', 0)).toEqual({ count: 1, oldest: 2 });
    expect(await direct.window('k', 0)).toEqual({ count: 1, oldest: 1 });
    expect(logs.filter((m) => m.includes('does not answer'))).toHaveLength(1);

    await relay.restore();
    await expect
      .poll(async () => (await store.window('k', 0)).oldest, { timeout: 10_000, interval: 200 })
      .toBe(1);
    await store.addToWindow('k', 3, 60_000);
    expect(await direct.window('k', 0)).toEqual({ count: 2, oldest: 1 });
    expect(logs.some((m) => m.includes('answers again'))).toBe(true);
  });
});
