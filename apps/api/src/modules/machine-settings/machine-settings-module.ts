import { defineModule } from '#api/app-module.ts';
import { createGroupsService } from '../groups/groups-service.ts';
import { settingsRoutes } from './settings-routes.ts';
import { createMachineSettings } from './settings-service.ts';

/**
 * Settings of the machines' app (issue 37 item 3, decision 079): fleet, group and machine values;
 * the heartbeat names the version (shared memory in app-services.ts), the app fetches and reports.
 */
export const machineSettingsModule = defineModule({
  name: 'machine-settings',
  register: (app, { db, now, config }) =>
    app.register(settingsRoutes, {
      settings: createMachineSettings({
        db,
        now,
        groups: createGroupsService({ db, now, offlineMinutes: config.deviceOfflineMinutes }),
        heartbeatSeconds: config.deviceHeartbeatSeconds,
        licenceOfflineDays: config.licences.offlineDays,
      }),
    }),
});
