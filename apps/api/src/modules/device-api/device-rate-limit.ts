/**
 * A token bucket per machine, in this process's memory (docs/decisions/022): `perMinute` calls a
 * minute on average, `burst` at once. Also the budget of refused device credentials per client
 * address (device-auth.ts), where a call counted first is given back when it turns out good. Synchronous and O(1) per call, so it sits on the hot path of
 * every device request. Memory stays bounded: a bucket that has refilled completely holds nothing
 * a fresh one would not, so idle buckets are dropped, and the map never exceeds `maxBuckets`.
 */
export function createDeviceRateLimit({
  perMinute,
  burst = Math.max(20, Math.ceil(perMinute / 10)),
  now,
  maxBuckets = 100_000,
  sweepEveryMs = 60_000,
}: {
  perMinute: number;
  burst?: number;
  now: () => number;
  maxBuckets?: number;
  sweepEveryMs?: number;
}) {
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
