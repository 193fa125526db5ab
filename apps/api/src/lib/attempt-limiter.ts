/**
 * Counts failures per key in a sliding window. In memory: one API instance is the embedded default;
 * with several instances the counters move to Redis (ARCHITECTURE "Growing past one machine").
 */
export function createAttemptLimiter(opts: { max: number; windowMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const failures = new Map<string, number[]>();

  const recent = (key: string) => {
    const cutoff = now() - opts.windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };

  return {
    /** Seconds until the key may try again, or 0 when it may try now. */
    blockedFor(key: string): number {
      const list = recent(key);
      if (list.length < opts.max) return 0;
      return Math.max(1, Math.ceil((list[0]! + opts.windowMs - now()) / 1000));
    },
    fail(key: string) {
      const list = recent(key);
      list.push(now());
      failures.set(key, list);
      // Bound memory under a spray of distinct keys.
      if (failures.size > 100_000) failures.delete(failures.keys().next().value!);
    },
    reset(key: string) {
      failures.delete(key);
    },
  };
}
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
