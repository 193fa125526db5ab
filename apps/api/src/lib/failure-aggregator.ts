import type { errorLogs } from '../db/schema/logs.ts';

type ErrorEntry = typeof errorLogs.$inferInsert;

/*
 * Anonymous failures, counted instead of written one row each (issue 18, docs/decisions/029). The
 * audit tables are append-only, so a flood of anonymous 4xx answers would otherwise fill the disk.
 * Per client address and window (a minute from its first failure): the first failure of each
 * (resource, status) is written as usual, identical ones after it are only counted, and when the
 * window closes one summary row says how many more there were. An address gets at most
 * `maxDistinct` distinct rows a window; failures past that are counted in one "other routes" row.
 * So one address writes at most 2 × maxDistinct + 1 rows a window, however hard it tries.
 */

type Window = {
  startedAt: number;
  /** Per (resource, status): the first row written, and how many identical ones followed. */
  seen: Map<string, { first: ErrorEntry; more: number }>;
  /** Failures past maxDistinct: counted, and the first of them kept as the summary's model. */
  overflow: { first: ErrorEntry; count: number } | null;
};

type Options = {
  /** Writes a summary row (the audit log's own buffer). */
  emit: (entry: ErrorEntry) => void;
  now: () => number;
  windowMs?: number;
  maxDistinct?: number;
  /** Addresses tracked at once; past it the oldest window is closed early (memory stays bounded). */
  maxAddresses?: number;
};

export const aggregationDefaults = { windowMs: 60_000, maxDistinct: 5, maxAddresses: 10_000 } as const;

export function createFailureAggregator({
  emit,
  now,
  windowMs = aggregationDefaults.windowMs,
  maxDistinct = aggregationDefaults.maxDistinct,
  maxAddresses = aggregationDefaults.maxAddresses,
}: Options) {
  const windows = new Map<string, Window>();
  const span = windowMs === 60_000 ? 'the last minute' : `the last ${Math.round(windowMs / 1000)} seconds`;

  function close(address: string, window: Window) {
    windows.delete(address);
    for (const { first, more } of window.seen.values()) {
      if (more > 0)
        emit({
          ...first,
          createdAt: new Date(now()),
          message: `${more} more identical failure${more === 1 ? '' : 's'} from this address in ${span}`,
        });
    }
    if (window.overflow)
      emit({
        ...window.overflow.first,
        resource: 'ANY (other routes)',
        functionName: 'anonymousFailures',
        statusCode: null,
        createdAt: new Date(now()),
        message: `${window.overflow.count} more failures on other routes from this address in ${span}`,
      });
  }

  /** Closes every window that has run its time. */
  function sweep() {
    const cutoff = now() - windowMs;
    for (const [address, window] of windows) if (window.startedAt <= cutoff) close(address, window);
  }

  return {
    /**
     * Whether this anonymous failure gets its own row now (true), or is only counted (false).
     * `address` is the client's address as the limiter sees it (an IPv6 /64 counts as one).
     */
    admit(address: string, entry: ErrorEntry): boolean {
      let window = windows.get(address);
      if (window && window.startedAt <= now() - windowMs) {
        close(address, window);
        window = undefined;
      }
      if (!window) {
        if (windows.size >= maxAddresses) sweep();
        if (windows.size >= maxAddresses) {
          const [oldest, oldestWindow] = windows.entries().next().value!;
          close(oldest, oldestWindow);
        }
        window = { startedAt: now(), seen: new Map(), overflow: null };
        windows.set(address, window);
      }
      const key = `${entry.statusCode ?? ''} ${entry.resource}`;
      const seen = window.seen.get(key);
      if (seen) {
        seen.more++;
        return false;
      }
      if (window.seen.size < maxDistinct) {
        window.seen.set(key, { first: entry, more: 0 });
        return true;
      }
      if (window.overflow) window.overflow.count++;
      else window.overflow = { first: entry, count: 1 };
      return false;
    },
    sweep,
    /** On shutdown: every open window's summary is written now. */
    closeAll() {
      for (const [address, window] of [...windows]) close(address, window);
    },
    /** Addresses tracked right now (the tests check the bound). */
    size: () => windows.size,
  };
}
