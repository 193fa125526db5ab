import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/*
 * Where the throttle counters (sign-in, codes, password reset) live. In this process's memory by
 * default: right for one API instance. With REDIS_URL, in Redis, so several instances behind a load
 * balancer count one attacker's failures together (ARCHITECTURE "Growing past one machine",
 * docs/decisions/021). Times are the app's clock (ms), not Redis's, so tests can move time.
 */
export type ThrottleStore = {
  /** A sliding window: forgets the entries at or before `cutoff`; how many are left, and the oldest. */
  window(key: string, cutoff: number): Promise<{ count: number; oldest: number | null }>;
  /** Adds an entry at `at`; the whole key may go `ttlMs` after this. */
  addToWindow(key: string, at: number, ttlMs: number): Promise<void>;
  /** A run of consecutive failures: how many and the last one's time, or null. */
  streak(key: string): Promise<{ count: number; last: number } | null>;
  /** One more failure in the run, at `at`; the run may be forgotten `ttlMs` after this. */
  extendStreak(key: string, at: number, ttlMs: number): Promise<void>;
  forget(key: string): Promise<void>;
  close(): Promise<void>;
};

/** Bound memory under a spray of distinct keys (addresses, emails): the oldest key goes first. */
const maxMemoryKeys = 100_000;

export function createMemoryThrottleStore(): ThrottleStore {
  const windows = new Map<string, number[]>();
  const streaks = new Map<string, { count: number; last: number }>();
  const bounded = <V>(map: Map<string, V>) => {
    if (map.size > maxMemoryKeys) map.delete(map.keys().next().value!);
  };
  return {
    async window(key, cutoff) {
      const list = (windows.get(key) ?? []).filter((t) => t > cutoff);
      if (list.length) windows.set(key, list);
      else windows.delete(key);
      return { count: list.length, oldest: list[0] ?? null };
    },
    async addToWindow(key, at) {
      const list = windows.get(key) ?? [];
      list.push(at);
      windows.set(key, list);
      bounded(windows);
    },
    async streak(key) {
      return streaks.get(key) ?? null;
    },
    async extendStreak(key, at) {
      streaks.set(key, { count: (streaks.get(key)?.count ?? 0) + 1, last: at });
      bounded(streaks);
    },
    async forget(key) {
      windows.delete(key);
      streaks.delete(key);
    },
    async close() {},
  };
}

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

/**
 * Counters in Redis: a sorted set per window key (score = time), a hash per streak, each expiring
 * on its own. Every command has a short timeout and none waits for a connection, so a slow or
 * absent Redis never holds a sign-in: while Redis cannot answer, this process counts in its own
 * memory (still throttling, per instance) and says so once in the log, and Redis takes over again
 * when it answers.
 */
export function createRedisThrottleStore({
  url,
  prefix,
  log,
}: {
  url: string;
  prefix: string;
  log?: Log;
}): ThrottleStore & { ready: Promise<void> } {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
  });
  // ioredis reconnects by itself; an 'error' event without a listener would crash the process.
  redis.on('error', () => {});
  const fallback = createMemoryThrottleStore();
  let degraded = false;
  const k = (key: string) => `${prefix}${key}`;

  async function attempt<T>(onRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    try {
      const result = await onRedis();
      if (degraded) {
        degraded = false;
        log?.info('throttle: Redis answers again; counting there');
      }
      return result;
    } catch (err) {
      if (!degraded) {
        degraded = true;
        log?.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'throttle: Redis does not answer; counting in this process until it does',
        );
      }
      return inMemory();
    }
  }

  const ready = redis.connect().catch(() => {
    // Not there at start: the first command reports it, and ioredis keeps trying to connect.
  });

  return {
    ready,
    window: (key, cutoff) =>
      attempt(
        async () => {
          const replies = await redis
            .multi()
            .zremrangebyscore(k(key), '-inf', String(cutoff))
            .zcard(k(key))
            .zrange(k(key), 0, '0', 'WITHSCORES')
            .exec();
          const failed = replies?.find(([e]) => e);
          if (!replies || failed) throw failed?.[0] ?? new Error('transaction aborted');
          const count = Number(replies[1]![1]);
          // [member, score] flat (RESP2) or as a pair (RESP3).
          const first = (replies[2]![1] as unknown[]).flat();
          return { count, oldest: first.length === 2 ? Number(first[1]) : null };
        },
        () => fallback.window(key, cutoff),
      ),
    addToWindow: (key, at, ttlMs) =>
      attempt(
        async () => {
          // A unique member: two failures in the same millisecond are two entries.
          await redis
            .multi()
            .zadd(k(key), String(at), `${at}:${randomBytes(6).toString('hex')}`)
            .pexpire(k(key), ttlMs)
            .exec();
        },
        () => fallback.addToWindow(key, at, ttlMs),
      ),
    streak: (key) =>
      attempt(
        async () => {
          const [count, last] = await redis.hmget(k(key), 'count', 'last');
          return count && last ? { count: Number(count), last: Number(last) } : null;
        },
        () => fallback.streak(key),
      ),
    extendStreak: (key, at, ttlMs) =>
      attempt(
        async () => {
          await redis
            .multi()
            .hincrby(k(key), 'count', 1)
            .hset(k(key), 'last', at)
            .pexpire(k(key), ttlMs)
            .exec();
        },
        () => fallback.extendStreak(key, at, ttlMs),
      ),
    forget: async (key) => {
      // Both: counts made in memory during an outage must not outlive a success either.
      await fallback.forget(key);
      await attempt(
        async () => {
          await redis.del(k(key));
        },
        async () => {},
      );
    },
    async close() {
      redis.disconnect();
    },
  };
}
