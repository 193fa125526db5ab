import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RedisLink } from './redis-link.ts';

/*
 * The anonymous per-address limit's counters in Redis (decision 073), for @fastify/rate-limit's
 * `store` option: with several API instances, one address gets ANON_RATE_PER_MINUTE a minute in
 * total, not that many from each. The window is the plugin's own: fixed, from the first request,
 * timed by Redis's key expiry as the plugin's memory store times it by this process's clock. Not
 * the plugin's RedisStore: a failed command there either fails the request or (`skipOnError`) lets
 * everything through; here it is counted in this process's memory, as the throttles do (021).
 */

/** Counts one request; starts the window on the first. Returns the count and the window's ms left. */
const hitScript = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

type Hit = { current: number; ttl: number };

/** The same fixed windows in this process, while Redis does not answer: at most `cap` addresses, the oldest dropped. */
function memoryWindows(cap: number) {
  const windows = new Map<string, { current: number; endsAt: number }>();
  return (key: string, windowMs: number): Hit => {
    const at = Date.now();
    let w = windows.get(key);
    if (!w || w.endsAt <= at) w = { current: 0, endsAt: at + windowMs };
    // Re-inserted, so the map's order is the order of last use.
    windows.delete(key);
    windows.set(key, w);
    if (windows.size > cap) windows.delete(windows.keys().next().value!);
    w.current += 1;
    return { current: w.current, ttl: w.endsAt - at };
  };
}

/** A store class for the plugin: counts under `${prefix}anon:` in Redis, in memory while it does not answer. */
export function sharedAnonymousStore(
  link: RedisLink,
  prefix: string,
  cap: number,
): FastifyRateLimitStoreCtor {
  const hit = link.script('anonymousLimitHit', hitScript);
  const inMemory = memoryWindows(cap);
  return class SharedAnonymousStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: Hit) => void, timeWindow: number) {
      link
        .attempt(
          async () => {
            const [current, ttl] = (await hit(`${prefix}anon:${key}`, timeWindow)) as [number, number];
            return { current, ttl };
          },
          () => inMemory(key, timeWindow),
        )
        .then((result) => callback(null, result), callback);
    }
    // One limiter (app.rateLimit in anonymous-rate-limit.ts), whose keys already name the group.
    child() {
      return this;
    }
  };
}
