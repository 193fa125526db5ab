import type { FastifyBaseLogger } from 'fastify';
import { deviceApiMessages } from '@app/contract/device-api';
import type { Config } from '#api/config.ts';
import type { Db } from '#api/db/client.ts';
import { TooManyRequestsError } from '#api/lib/errors.ts';
import { createCheckIns } from './check-ins.ts';
import type { DeviceContext } from './device-auth.ts';
import { createDeviceRateLimit } from './device-rate-limit.ts';

/**
 * What runs on every authenticated device call, after the credential is checked: the last-seen
 * check-in (coalesced, check-ins.ts) and the per-machine rate limit (one broken app must not
 * starve the rest). Both are in memory: nothing here waits on the database.
 */
export function createDeviceGate({
  db,
  config,
  now,
  log,
}: {
  db: Db;
  config: Config;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const checkIns = createCheckIns({ db, log });
  const rateLimit = createDeviceRateLimit({
    perMinute: config.deviceRatePerMinute,
    now: () => now().getTime(),
  });
  return {
    checkIns,
    rateLimit,
    /** Uses no `this`: the auth hook calls it detached. */
    onDeviceCall(device: DeviceContext) {
      // Seen even when refused below: a machine that is throttled is still online.
      checkIns.record(device.deviceId, { at: now() });
      const wait = rateLimit.take(device.deviceId);
      if (wait > 0) throw new TooManyRequestsError(deviceApiMessages.rateLimited, wait);
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
