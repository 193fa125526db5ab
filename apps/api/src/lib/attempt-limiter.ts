import { createMemoryThrottleStore, type ThrottleStore } from './throttle-store.ts';

/*
 * Throttles written once over a ThrottleStore: in this process's memory by default, in Redis when
 * several API instances must count together (lib/throttle-store.ts, docs/decisions/021). `name`
 * keeps each limiter's keys apart in a shared store.
 */

export type AttemptLimiter = {
  /** Seconds until the key may try again, or 0 when it may try now. */
  blockedFor(key: string): Promise<number>;
  fail(key: string): Promise<void>;
  reset(key: string): Promise<void>;
};

type Common = { name: string; now?: () => number; store?: ThrottleStore };

/** Counts failures per key in a sliding window: `max` failures within `windowMs` block the key until the oldest ages out. */
export function createAttemptLimiter(opts: Common & { max: number; windowMs: number }): AttemptLimiter {
  const now = opts.now ?? Date.now;
  const store = opts.store ?? createMemoryThrottleStore();
  const key = (k: string) => `window:${opts.name}:${k}`;
  return {
    async blockedFor(k) {
      const at = now();
      const { count, oldest } = await store.window(key(k), at - opts.windowMs);
      if (count < opts.max || oldest === null) return 0;
      return Math.max(1, Math.ceil((oldest + opts.windowMs - at) / 1000));
    },
    fail: (k) => store.addToWindow(key(k), now(), opts.windowMs),
    reset: (k) => store.forget(key(k)),
  };
}

/**
 * A short, capped back-off per key instead of a lock: the first `free` consecutive failures cost
 * nothing, then each one makes the key wait base, 2×base, 4×base … up to `capMs` from that
 * failure. An attacker can slow an account down but never lock it for longer than the cap
 * (docs/decisions, "sign-in throttling"). Forgotten after `forgetMs` without a failure.
 */
export function createBackoffLimiter(
  opts: Common & { free: number; baseMs: number; capMs: number; forgetMs: number },
): AttemptLimiter {
  const now = opts.now ?? Date.now;
  const store = opts.store ?? createMemoryThrottleStore();
  const key = (k: string) => `streak:${opts.name}:${k}`;
  /** The run of failures, unless it has gone quiet for forgetMs (then it no longer counts). */
  const streak = async (k: string) => {
    const s = await store.streak(key(k));
    if (s && now() - s.last > opts.forgetMs) {
      await store.forget(key(k));
      return null;
    }
    return s;
  };
  return {
    async blockedFor(k) {
      const s = await streak(k);
      if (!s || s.count < opts.free) return 0;
      const wait = Math.min(opts.baseMs * 2 ** (s.count - opts.free), opts.capMs);
      const left = s.last + wait - now();
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },
    async fail(k) {
      await streak(k);
      await store.extendStreak(key(k), now(), opts.forgetMs);
    },
    reset: (k) => store.forget(key(k)),
  };
}
