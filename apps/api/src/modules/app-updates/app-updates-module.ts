import { defineModule } from '#api/app-module.ts';
import { createAppUpdatesExport } from './app-updates-export.ts';
import { appUpdatesRoutes } from './app-updates-routes.ts';
import { createAppUpdatesService } from './app-updates-service.ts';
import { createMinimumSupportedVersion } from './minimum-supported-version.ts';
import { createRolloutService } from './rollout-service.ts';
import { createUpdateWindow } from './update-window.ts';
import { createSignatureService } from '../signatures/signature-service.ts';

/**
 * App releases: the upload, the list, the APK download, the update check (answered by rollout
 * cohort to an enrolled machine, which is why it takes the device gate) and the staged rollout's
 * actions (decision 051).
 */
export const appUpdatesModule = defineModule({
  name: 'app-updates',
  async register(app, { db, config, storage, deviceAuth, deviceGate, mfa, now }) {
    const secondAdminApproval = config.rolloutSecondAdmin;
    // A second admin's approval is signed (decision 083); the list shows the signatures.
    const signatures = createSignatureService({ db, mfa, now });
    await app.register(appUpdatesRoutes, {
      appUpdates: createAppUpdatesService({
        db,
        storage,
        publicUrl: config.publicUrl,
        apkMaxBytes: config.apkMaxBytes,
        apkLimits: { maxEntries: config.apkMaxEntries, maxUncompressedBytes: config.apkMaxUncompressedBytes },
        minimumSupportedVersion: createMinimumSupportedVersion({ config: config.alarms }),
        secondAdminApproval,
        updateWindow: createUpdateWindow(db, now),
      }),
      exportCsv: createAppUpdatesExport({ db, publicUrl: config.publicUrl }),
      rollouts: createRolloutService({ db, secondAdminApproval, signatures }),
      devices: { auth: deviceAuth, onDeviceCall: deviceGate.onDeviceCall },
      signatures,
    });
  },
});
