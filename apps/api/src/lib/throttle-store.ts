import { randomBytes } from 'node:crypto';

/*
 * Where the throttle counters (sign-in, codes, password reset) live. In this process's memory by
 * default: right for one API instance. With REDIS_URL, in Redis, so several instances behind a load
 * balancer count one attacker's failures together (docs/architecture.md §11 "Growing past one machine",
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
  /**
   * Count-first, atomically: forgets the entries at or before `cutoff`; when fewer than `max` are
   * left, adds one at `at` and returns its id (the caller takes it back on success), otherwise the
   * oldest entry's time. Check-then-add in two steps let a parallel burst pass before any counted.
   */
  reserveInWindow(
    key: string,
    at: number,
    rule: { cutoff: number; max: number; ttlMs: number },
  ): Promise<{ id: string } | { oldest: number }>;
  /** Takes one reserved entry back (the attempt succeeded, or another limit refused it). */
  removeFromWindow(key: string, id: string): Promise<void>;
  /**
   * Count-first for a back-off, atomically: forgets a run quiet for `forgetMs`; returns the ms left
   * to wait, or 0 after counting one more failure at `at`.
   */
  reserveInStreak(key: string, at: number, rule: BackoffRule): Promise<number>;
  /** One failure fewer in the run (a reserved attempt given back). */
  shortenStreak(key: string): Promise<void>;
  close(): Promise<void>;
};

export type BackoffRule = { free: number; baseMs: number; capMs: number; forgetMs: number };

/** How long a run of `count` failures, the last at `last`, makes the key wait from `at` (ms, 0 = none). */
export function backoffWaitMs(count: number, last: number, at: number, rule: BackoffRule): number {
  if (count < rule.free) return 0;
  const wait = Math.min(rule.baseMs * 2 ** (count - rule.free), rule.capMs);
  return Math.max(0, last + wait - at);
}

/** A window entry's id: its time, and random bits so two at the same millisecond differ. */
export const entryId = (at: number) => `${at}:${randomBytes(6).toString('hex')}`;

/** Bound memory under a spray of distinct keys (addresses, emails): the oldest key goes first. */
const maxMemoryKeys = 100_000;

export function createMemoryThrottleStore(): ThrottleStore {
  // Each entry's time and id (a reservation is taken back by id). No await between reading and
  // writing a key below: within one process every operation is atomic.
  const windows = new Map<string, Array<{ at: number; id: string }>>();
  const streaks = new Map<string, { count: number; last: number }>();
  const bounded = <V>(map: Map<string, V>) => {
    if (map.size > maxMemoryKeys) map.delete(map.keys().next().value!);
  };
  const live = (key: string, cutoff: number) => {
    const list = (windows.get(key) ?? []).filter((e) => e.at > cutoff);
    if (list.length) windows.set(key, list);
    else windows.delete(key);
    return list;
  };
  const add = (key: string, at: number) => {
    const id = entryId(at);
    // Kept in time order, so the first entry is the oldest.
    windows.set(
      key,
      [...(windows.get(key) ?? []), { at, id }].sort((a, b) => a.at - b.at),
    );
    bounded(windows);
    return id;
  };
  const currentStreak = (key: string) => streaks.get(key) ?? null;
  return {
    async window(key, cutoff) {
      const list = live(key, cutoff);
      return { count: list.length, oldest: list[0]?.at ?? null };
    },
    async addToWindow(key, at) {
      add(key, at);
    },
    async reserveInWindow(key, at, { cutoff, max }) {
      const list = live(key, cutoff);
      if (list.length >= max) return { oldest: list[0]!.at };
      return { id: add(key, at) };
    },
    async removeFromWindow(key, id) {
      const list = (windows.get(key) ?? []).filter((e) => e.id !== id);
      if (list.length) windows.set(key, list);
      else windows.delete(key);
    },
    async reserveInStreak(key, at, rule) {
      let s = currentStreak(key);
      if (s && at - s.last > rule.forgetMs) {
        streaks.delete(key);
        s = null;
      }
      const wait = s ? backoffWaitMs(s.count, s.last, at, rule) : 0;
      if (wait > 0) return wait;
      streaks.set(key, { count: (s?.count ?? 0) + 1, last: at });
      bounded(streaks);
      return 0;
    },
    async shortenStreak(key) {
      const s = streaks.get(key);
      if (s && s.count > 0) streaks.set(key, { ...s, count: s.count - 1 });
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
