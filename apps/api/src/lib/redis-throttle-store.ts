import type { RedisLink } from './redis-link.ts';
import { createMemoryThrottleStore, entryId, type ThrottleStore } from './throttle-store.ts';

/*
 * The same two rules as one Redis script each, so a reservation is one atomic step even across API
 * instances. Times come from the app's clock (ARGV), as in the rest of this store.
 */
const reserveInWindowScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {1, ARGV[5]}
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, first[2]}`;

const reserveInStreakScript = `
local at = tonumber(ARGV[1])
local free, base, cap, forget = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local s = redis.call('HMGET', KEYS[1], 'count', 'last')
local count, last = tonumber(s[1]) or 0, tonumber(s[2]) or 0
if count > 0 and at - last > forget then
  redis.call('DEL', KEYS[1])
  count = 0
end
if count >= free then
  local left = last + math.min(base * 2 ^ (count - free), cap) - at
  if left > 0 then return math.ceil(left) end
end
redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 0`;

const shortenStreakScript = `
if (tonumber(redis.call('HGET', KEYS[1], 'count')) or 0) > 0 then redis.call('HINCRBY', KEYS[1], 'count', -1) end
return 0`;

/**
 * Counters in Redis: a sorted set per window key (score = time), a hash per streak, each expiring
 * on its own. Through the instance's one connection (`RedisLink`): a slow or absent Redis never
 * holds a sign-in, since while Redis cannot answer this process counts in its own memory (still
 * throttling, per instance), and Redis takes over again when it answers.
 */
export function createRedisThrottleStore({
  link,
  prefix,
}: {
  link: RedisLink;
  prefix: string;
}): ThrottleStore {
  const { redis, attempt } = link;
  const fallback = createMemoryThrottleStore();
  const k = (key: string) => `${prefix}${key}`;

  return {
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
          await redis.multi().zadd(k(key), String(at), entryId(at)).pexpire(k(key), ttlMs).exec();
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
    reserveInWindow: (key, at, rule) =>
      attempt(
        async () => {
          const [granted, value] = (await redis.eval(
            reserveInWindowScript,
            1,
            k(key),
            String(rule.cutoff),
            String(at),
            String(rule.max),
            String(rule.ttlMs),
            entryId(at),
          )) as [number, string];
          return granted === 1 ? { id: value } : { oldest: Number(value) };
        },
        () => fallback.reserveInWindow(key, at, rule),
      ),
    removeFromWindow: async (key, id) => {
      await fallback.removeFromWindow(key, id);
      await attempt(
        async () => {
          await redis.zrem(k(key), id);
        },
        async () => {},
      );
    },
    reserveInStreak: (key, at, rule) =>
      attempt(
        async () =>
          Number(
            await redis.eval(
              reserveInStreakScript,
              1,
              k(key),
              String(at),
              String(rule.free),
              String(rule.baseMs),
              String(rule.capMs),
              String(rule.forgetMs),
            ),
          ),
        () => fallback.reserveInStreak(key, at, rule),
      ),
    shortenStreak: async (key) => {
      await fallback.shortenStreak(key);
      await attempt(
        async () => {
          await redis.eval(shortenStreakScript, 1, k(key));
        },
        async () => {},
      );
    },
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
    // The connection is the app's (app.ts closes it), shared with the other counters.
    async close() {},
  };
}
