import type { RedisLink } from '#api/lib/redis-link.ts';

type BucketOptions = {
  perMinute: number;
  burst?: number;
  now: () => number;
  maxBuckets?: number;
  sweepEveryMs?: number;
};

/** The burst when none is given: a tenth of the minute, at least 20. */
const defaultBurst = (perMinute: number) => Math.max(20, Math.ceil(perMinute / 10));

/**
 * A token bucket per machine, in this process's memory (docs/decisions/022): `perMinute` calls a
 * minute on average, `burst` at once. Also the budget of refused device credentials per client
 * address (device-auth.ts), where a call counted first is given back when it turns out good.
 * Synchronous and O(1) per call, so it sits on the hot path of every device request. Memory stays
 * bounded: a bucket that has refilled completely holds nothing a fresh one would not, so idle
 * buckets are dropped, and the map never exceeds `maxBuckets`. With REDIS_URL the buckets are in
 * Redis instead (`createSharedDeviceRateLimit`), this one counting only while Redis does not answer.
 */
export function createDeviceRateLimit({
  perMinute,
  burst = defaultBurst(perMinute),
  now,
  maxBuckets = 100_000,
  sweepEveryMs = 60_000,
}: BucketOptions) {
  const perMs = perMinute / 60_000;
  /** tokens left at time `at` (ms). */
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = now();

  const level = (b: { tokens: number; at: number }, at: number) =>
    Math.min(burst, b.tokens + Math.max(0, at - b.at) * perMs);

  function sweep(at: number) {
    lastSweep = at;
    for (const [key, b] of buckets) if (level(b, at) >= burst) buckets.delete(key);
    // Still full of busy machines (far more than the fleet): drop the oldest-touched ones. Each
    // restarts with a full bucket, which errs towards letting a machine through.
    for (const key of buckets.keys()) {
      if (buckets.size < maxBuckets) break;
      buckets.delete(key);
    }
  }

  return {
    /** 0 when the call may go ahead (and is counted), else the seconds until one may. */
    take(key: string): number {
      const at = now();
      if (at - lastSweep >= sweepEveryMs || buckets.size >= maxBuckets) sweep(at);
      const b = buckets.get(key);
      const tokens = b ? level(b, at) : burst;
      if (tokens < 1) {
        // Over the limit: this call is not counted, so a machine that backs off recovers on time.
        return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
      }
      // Re-inserted so the map's order is the order of last use (the oldest go first in a sweep).
      if (b) buckets.delete(key);
      buckets.set(key, { tokens: tokens - 1, at });
      return 0;
    },
    /** Gives back the call `take` last counted for `key` (it turned out not to be one that counts). */
    give(key: string) {
      const b = buckets.get(key);
      if (b) b.tokens = Math.min(burst, b.tokens + 1);
    },
    size: () => buckets.size,
  };
}

/*
 * The same bucket as one script, so a take is one atomic step across API instances. The hash holds
 * the tokens left (`t`) at a time (`at`, the app's clock as in decision 021); the key expires once
 * the bucket would be full again, so idle machines hold nothing. A time behind the stored one (an
 * instance's clock a little behind another's) refills nothing and does not move `at` back.
 */
const takeScript = `
local at, perMs, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens, last = burst, at
if b[1] then
  last = math.max(at, tonumber(b[2]))
  tokens = math.min(burst, tonumber(b[1]) + (last - tonumber(b[2])) * perMs)
end
if tokens < 1 then return math.max(1, math.ceil((1 - tokens) / perMs / 1000)) end
redis.call('HSET', KEYS[1], 't', tostring(tokens - 1), 'at', tostring(last))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens + 1) / perMs))
return 0`;

const giveScript = `
local t = tonumber(redis.call('HGET', KEYS[1], 't'))
if t then redis.call('HSET', KEYS[1], 't', tostring(math.min(tonumber(ARGV[1]), t + 1))) end
return 0`;

/**
 * `createDeviceRateLimit`'s buckets in Redis (decision 073): with several API instances a machine
 * (or, for refused credentials, an address) gets `perMinute` in total, not that many from each. One
 * EVALSHA per call; while Redis does not answer, the buckets of this process's memory count
 * instead (lib/redis-link.ts). `name` keeps the two uses' keys apart under REDIS_PREFIX.
 */
export function createSharedDeviceRateLimit({
  redis,
  prefix,
  name,
  ...options
}: BucketOptions & { redis: RedisLink; prefix: string; name: string }) {
  const inMemory = createDeviceRateLimit(options);
  const { perMinute, burst = defaultBurst(perMinute), now } = options;
  const perMs = String(perMinute / 60_000);
  const take = redis.script('deviceBucketTake', takeScript);
  const give = redis.script('deviceBucketGive', giveScript);
  const k = (key: string) => `${prefix}${name}:${key}`;
  return {
    /** 0 when the call may go ahead (and is counted), else the seconds until one may. */
    take: (key: string): Promise<number> =>
      redis.attempt(
        async () => Number(await take(k(key), now(), perMs, burst)),
        () => inMemory.take(key),
      ),
    /** Gives back a call counted for `key`, wherever it was counted (Redis, or memory during an outage). */
    async give(key: string) {
      inMemory.give(key);
      await redis.attempt(
        () => give(k(key), burst),
        () => undefined,
      );
    },
    size: inMemory.size,
  };
}

/** Either bucket: the memory one answers at once, the shared one after its round trip. */
export type DeviceRateLimit = {
  take(key: string): number | Promise<number>;
  give(key: string): void | Promise<void>;
};
