import { defineModule } from '#api/app-module.ts';
import { groupsRoutes } from './groups-routes.ts';
import { createDynamicGroupSync } from './dynamic-group-sync.ts';
import { createGroupsService } from './groups-service.ts';

/**
 * Machine groups (issue 37, decision 077): static or dynamic; commands go to them. Every minute a
 * dynamic group's window and settings follow its filter (decision 079): a minute, because the online
 * filter changes with time alone, with no write to hook (DEVICE_OFFLINE_MINUTES is counted in minutes).
 */
export const groupsModule = defineModule({
  name: 'groups',
  register: (app, { db, now, config }) =>
    app.register(groupsRoutes, {
      groups: createGroupsService({ db, now, offlineMinutes: config.deviceOfflineMinutes }),
    }),
  jobs: (_app, { db, now, config }) => {
    const groups = createGroupsService({ db, now, offlineMinutes: config.deviceOfflineMinutes });
    const sync = createDynamicGroupSync({ db, now, groups });
    return [{ name: 'dynamic group sync', everySeconds: 60, run: () => sync.run() }];
  },
});
