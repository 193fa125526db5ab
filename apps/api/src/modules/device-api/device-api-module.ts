import type { FastifyBaseLogger } from 'fastify';
import { defineModule } from '#api/app-module.ts';
import type { Config } from '#api/config.ts';
import type { Db } from '#api/db/client.ts';
import type { Storage } from '#api/lib/storage/storage.ts';
import type { ThrottleStore } from '#api/lib/throttle-store.ts';
import type { CommandInbox } from '../commands/command-inbox.ts';
import type { DeviceAuth } from './device-auth.ts';
import type { DeviceGateService } from './device-gate.ts';
import { identityRoutes } from './identity-routes.ts';
import type { LicenceVersions } from './licence-versions.ts';
import type { SettingsVersions } from './settings-versions.ts';
import { syncRoutes } from './sync/sync-routes.ts';

export type DeviceApiDeps = {
  db: Db;
  config: Config;
  now: () => Date;
  log: FastifyBaseLogger;
  storage: Storage;
  deviceAuth: DeviceAuth;
  gate: DeviceGateService;
  /** Each machine's licence version, kept current by the database's notices (the heartbeat answers it). */
  licenceVersions: LicenceVersions;
  /** Which machines have commands waiting (the heartbeat hands them over; modules/commands). */
  commandInbox: CommandInbox;
  /** Each machine's settings version and heartbeat interval (the heartbeat answers them; modules/machine-settings). */
  settingsVersions: SettingsVersions;
  /** The throttles' store (memory, or Redis shared by every API instance): enrolment and sign-in tries. */
  throttleStore?: ThrottleStore;
};

/**
 * The machines' side (docs/device-api.md): enrolment and the console's enrolment controls, people
 * signing in on a machine, check-ins (identity-routes.ts); the records the app sends (sync/). The
 * machines' credentials and their gate are shared services: the auth hook checks them.
 */
export const deviceApiModule = defineModule({
  name: 'device-api',
  async register(
    app,
    {
      db,
      config,
      now,
      log,
      storage,
      deviceAuth,
      deviceGate,
      licenceVersions,
      commandInbox,
      settingsVersions,
      throttleStore,
    },
  ) {
    const deps: DeviceApiDeps = {
      db,
      config,
      now,
      log,
      storage,
      deviceAuth,
      gate: deviceGate,
      licenceVersions,
      commandInbox,
      settingsVersions,
      throttleStore,
    };
    await app.register(identityRoutes, deps);
    await app.register(syncRoutes, deps);
  },
});
