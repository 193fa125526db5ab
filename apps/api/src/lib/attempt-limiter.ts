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

/**
 * A short, capped back-off per key instead of a lock: the first `free` consecutive failures cost
 * nothing, then each one makes the key wait base, 2×base, 4×base … up to `capMs` from that
 * failure. An attacker can slow an account down but never lock it for longer than the cap
 * (docs/decisions, "sign-in throttling"). Same interface as createAttemptLimiter; forgotten after `forgetMs` quiet.
 */
export function createBackoffLimiter(opts: { free: number; baseMs: number; capMs: number; forgetMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const streaks = new Map<string, { count: number; last: number }>();

  const streak = (key: string) => {
    const s = streaks.get(key);
    if (s && now() - s.last > opts.forgetMs) {
      streaks.delete(key);
      return undefined;
    }
    return s;
  };

  return {
    blockedFor(key: string): number {
      const s = streak(key);
      if (!s || s.count < opts.free) return 0;
      const wait = Math.min(opts.baseMs * 2 ** (s.count - opts.free), opts.capMs);
      const left = s.last + wait - now();
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },
    fail(key: string) {
      const s = streak(key);
      streaks.set(key, { count: (s?.count ?? 0) + 1, last: now() });
      if (streaks.size > 100_000) streaks.delete(streaks.keys().next().value!);
    },
    reset(key: string) {
      streaks.delete(key);
    },
  };
}
