import { defineModule } from '#api/app-module.ts';
import { groupsRoutes } from './groups-routes.ts';
import { createGroupsService } from './groups-service.ts';

/** Machine groups (issue 37, decision 077): static or dynamic; commands go to them. */
export const groupsModule = defineModule({
  name: 'groups',
  register: (app, { db, now, config }) =>
    app.register(groupsRoutes, {
      groups: createGroupsService({ db, now, offlineMinutes: config.deviceOfflineMinutes }),
    }),
});
