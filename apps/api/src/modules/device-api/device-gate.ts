import type { FastifyBaseLogger } from 'fastify';
import { deviceApiMessages } from '@app/contract/device-api';
import type { Config } from '#api/config.ts';
import type { Db } from '#api/db/client.ts';
import { TooManyRequestsError } from '#api/lib/errors.ts';
import type { RedisLink } from '#api/lib/redis-link.ts';
import { createCheckIns } from './check-ins.ts';
import type { DeviceContext } from './device-auth.ts';
import {
  createDeviceRateLimit,
  createSharedDeviceRateLimit,
  type DeviceRateLimit,
} from './device-rate-limit.ts';

/**
 * What runs on every authenticated device call, after the credential is checked: the last-seen
 * check-in (coalesced, check-ins.ts) and the per-machine rate limit (one broken app must not
 * starve the rest). Nothing here waits on the database. The limit counts in this process's memory,
 * or with REDIS_URL in Redis, so that every API instance together allows DEVICE_RATE_PER_MINUTE
 * (decision 073): then each call waits one Redis round trip.
 */
export function createDeviceGate({
  db,
  config,
  now,
  log,
  redis,
}: {
  db: Db;
  config: Config;
  now: () => Date;
  log: FastifyBaseLogger;
  redis: RedisLink | null;
}) {
  const checkIns = createCheckIns({ db, log });
  const bucket = { perMinute: config.deviceRatePerMinute, now: () => now().getTime() };
  const rateLimit: DeviceRateLimit = redis
    ? createSharedDeviceRateLimit({ ...bucket, redis, prefix: config.redisPrefix, name: 'limit:machine' })
    : createDeviceRateLimit(bucket);
  const refuse = (wait: number) => {
    if (wait > 0) throw new TooManyRequestsError(deviceApiMessages.rateLimited, wait);
  };
  return {
    checkIns,
    /** Uses no `this`: the auth hook calls it detached. */
    onDeviceCall(device: DeviceContext): void | Promise<void> {
      // Seen even when refused below: a machine that is throttled is still online.
      checkIns.record(device.deviceId, { at: now() });
      const wait = rateLimit.take(device.deviceId);
      // In memory the answer is at hand: no promise on the hot path.
      return typeof wait === 'number' ? refuse(wait) : wait.then(refuse);
    },
    async close() {
      await checkIns.close();
    },
  };
}
export type DeviceGateService = ReturnType<typeof createDeviceGate>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The device gate: tests await `app.deviceGate.checkIns.flush()`. */
    deviceGate: DeviceGateService;
  }
}
