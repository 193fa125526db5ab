import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

/** A Lua script on one key, sent by its SHA once the connection has it (EVALSHA): one command a call. */
export type RedisScript = (key: string, ...args: Array<string | number>) => Promise<unknown>;

/**
 * The one Redis connection of an API instance (REDIS_URL) that every shared counter uses: the
 * throttles' (decision 021) and the anonymous and per-machine limits' (decision 073).
 *
 * A counter must never become the outage, nor hold a request up. Commands never queue for a
 * connection (`enableOfflineQueue: false`, no retries) and time out after 500 ms; a failed command
 * is counted in this process's memory instead (`attempt`), said once in the log at warn and once at
 * info when Redis answers again. While it does not answer, only one call a second tries it (the
 * others go straight to memory), so a Redis that hangs costs one request 500 ms each second, not
 * every request 500 ms. ioredis keeps reconnecting by itself.
 */
export type RedisLink = {
  redis: Redis;
  /** Settled once the first connection succeeded or failed: the API starts without Redis too. */
  ready: Promise<void>;
  attempt<T>(onRedis: () => Promise<T>, inMemory: () => T | Promise<T>): Promise<T>;
  script(name: string, lua: string): RedisScript;
  close(): Promise<void>;
};

/** While Redis does not answer, how often one call may try it again. */
const retryEveryMs = 1000;

export function createRedisLink({ url, log }: { url: string; log?: Log }): RedisLink {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
  });
  // ioredis reconnects by itself; an 'error' event without a listener would crash the process.
  redis.on('error', () => {});
  let degraded = false;
  let probing = false;
  let retryAt = 0;

  async function attempt<T>(onRedis: () => Promise<T>, inMemory: () => T | Promise<T>): Promise<T> {
    const probe = degraded;
    if (probe && (probing || performance.now() < retryAt)) return inMemory();
    if (probe) probing = true;
    try {
      const result = await onRedis();
      if (degraded) {
        degraded = false;
        log?.info('throttle: Redis answers again; counting there');
      }
      return result;
    } catch (err) {
      retryAt = performance.now() + retryEveryMs;
      if (!degraded) {
        degraded = true;
        log?.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'throttle: Redis does not answer; counting in this process until it does',
        );
      }
      return inMemory();
    } finally {
      if (probe) probing = false;
    }
  }

  const ready = redis.connect().catch(() => {
    // Not there at start: the first command reports it, and ioredis keeps trying to connect.
  });

  return {
    redis,
    ready,
    attempt,
    script(name, lua) {
      // ioredis sends the script itself the first time on each connection, then only its SHA.
      redis.defineCommand(name, { numberOfKeys: 1, lua });
      const scripts = redis as unknown as Record<string, RedisScript>;
      return (key, ...args) => scripts[name]!(key, ...args);
    },
    async close() {
      redis.disconnect();
    },
  };
}
