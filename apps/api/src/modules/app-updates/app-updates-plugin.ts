import type { FastifyInstance } from 'fastify';
import type { Config } from '#api/config.ts';
import type { Db } from '#api/db/client.ts';
import type { DeviceGate } from '#api/lib/auth-hook.ts';
import type { Storage } from '#api/lib/storage/storage.ts';
import { createAppUpdatesExport } from './app-updates-export.ts';
import { appUpdatesRoutes } from './app-updates-routes.ts';
import { createAppUpdatesService } from './app-updates-service.ts';
import { createMinimumSupportedVersion } from './minimum-supported-version.ts';
import { createRolloutService } from './rollout-service.ts';

/**
 * App releases: the upload, the list, the APK download, the update check (answered by rollout
 * cohort to an enrolled machine, which is why it takes the device gate) and the staged rollout's
 * actions (decision 051).
 */
export async function registerAppUpdates(
  app: FastifyInstance,
  { db, config, storage, devices }: { db: Db; config: Config; storage: Storage; devices: DeviceGate },
) {
  const secondAdminApproval = config.rolloutSecondAdmin;
  await app.register(appUpdatesRoutes, {
    appUpdates: createAppUpdatesService({
      db,
      storage,
      publicUrl: config.publicUrl,
      apkMaxBytes: config.apkMaxBytes,
      apkLimits: { maxEntries: config.apkMaxEntries, maxUncompressedBytes: config.apkMaxUncompressedBytes },
      minimumSupportedVersion: createMinimumSupportedVersion({ config: config.alarms }),
      secondAdminApproval,
    }),
    exportCsv: createAppUpdatesExport({ db, publicUrl: config.publicUrl }),
    rollouts: createRolloutService({ db, secondAdminApproval }),
    devices,
  });
}
