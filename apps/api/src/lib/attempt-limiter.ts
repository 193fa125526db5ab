import { apiMessages } from '@app/contract/envelope';
import { TooManyRequestsError } from './errors.ts';
import { backoffWaitMs, createMemoryThrottleStore, type ThrottleStore } from './throttle-store.ts';

/*
 * Throttles written once over a ThrottleStore: in this process's memory by default, in Redis when
 * several API instances must count together (lib/throttle-store.ts, docs/decisions/021). `name`
 * keeps each limiter's keys apart in a shared store.
 *
 * Count first (docs/decisions/024): `reserve` counts the attempt as a failure in one atomic step
 * BEFORE the password or code is checked, and the caller gives it back when the attempt succeeds.
 * Checking first and recording after the work let a parallel burst through before any was counted.
 */

/** A counted attempt. `wait` > 0: refused, nothing counted; otherwise `refund` takes it back. */
export type Reservation = { wait: number; refund(): Promise<void> };

export type AttemptLimiter = {
  /** Seconds until the key may try again, or 0 when it may try now (a look, counts nothing). */
  blockedFor(key: string): Promise<number>;
  /** Counts one attempt now unless the key must wait: atomic, so a burst gets no more than the limit. */
  reserve(key: string): Promise<Reservation>;
  fail(key: string): Promise<void>;
  reset(key: string): Promise<void>;
};

type Common = { name: string; now?: () => number; store?: ThrottleStore };

const refused = (waitSeconds: number): Reservation => ({ wait: waitSeconds, refund: async () => {} });

/** Counts failures per key in a sliding window: `max` failures within `windowMs` block the key until the oldest ages out. */
export function createAttemptLimiter(opts: Common & { max: number; windowMs: number }): AttemptLimiter {
  const now = opts.now ?? Date.now;
  const store = opts.store ?? createMemoryThrottleStore();
  const key = (k: string) => `window:${opts.name}:${k}`;
  const waitFrom = (oldest: number, at: number) =>
    Math.max(1, Math.ceil((oldest + opts.windowMs - at) / 1000));
  return {
    async blockedFor(k) {
      const at = now();
      const { count, oldest } = await store.window(key(k), at - opts.windowMs);
      if (count < opts.max || oldest === null) return 0;
      return waitFrom(oldest, at);
    },
    async reserve(k) {
      const at = now();
      const got = await store.reserveInWindow(key(k), at, {
        cutoff: at - opts.windowMs,
        max: opts.max,
        ttlMs: opts.windowMs,
      });
      if ('oldest' in got) return refused(waitFrom(got.oldest, at));
      return { wait: 0, refund: () => store.removeFromWindow(key(k), got.id) };
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
  const rule = { free: opts.free, baseMs: opts.baseMs, capMs: opts.capMs, forgetMs: opts.forgetMs };
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
      const left = s ? backoffWaitMs(s.count, s.last, now(), rule) : 0;
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },
    async reserve(k) {
      const left = await store.reserveInStreak(key(k), now(), rule);
      if (left > 0) return refused(Math.ceil(left / 1000));
      return { wait: 0, refund: () => store.shortenStreak(key(k)) };
    },
    async fail(k) {
      await streak(k);
      await store.extendStreak(key(k), now(), opts.forgetMs);
    },
    reset: (k) => store.forget(key(k)),
  };
}

/**
 * Reserves one attempt in each limiter, in order; when one refuses, gives back the ones already
 * taken and throws 429 with its wait. Put back-off limiters last: their refund cannot undo the time
 * of the last failure, only the count.
 */
export async function reserveAll(
  entries: Array<[AttemptLimiter, string]>,
  message: string = apiMessages.tooManyRequests,
): Promise<{ refund(): Promise<void> }> {
  const taken: Reservation[] = [];
  const refund = async () => {
    await Promise.all(taken.map((r) => r.refund()));
  };
  for (const [limiter, key] of entries) {
    const r = await limiter.reserve(key);
    if (r.wait > 0) {
      await refund();
      throw new TooManyRequestsError(message, r.wait);
    }
    taken.push(r);
  }
  return { refund };
}

/**
 * How many attempts per key may be in flight at once in this process (a cap on parallel password
 * checks per account, on top of the counted limits: each one costs an argon2 run).
 */
export function createInFlightCap(max: number) {
  const running = new Map<string, number>();
  return {
    /** A release function, or null when `max` attempts for the key are already running. */
    enter(key: string): (() => void) | null {
      const n = running.get(key) ?? 0;
      if (n >= max) return null;
      running.set(key, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(key) ?? 1) - 1;
        if (left > 0) running.set(key, left);
        else running.delete(key);
      };
    },
  };
}
