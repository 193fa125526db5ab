import { defineModule } from '#api/app-module.ts';
import { createGroupsService } from '../groups/groups-service.ts';
import { maintenanceWindowsRoutes } from './maintenance-windows-routes.ts';
import { createMaintenanceWindows } from './maintenance-windows-service.ts';

/** Maintenance windows of machines and groups (issue 37 item 4); the command inbox obeys them. */
export const maintenanceWindowsModule = defineModule({
  name: 'maintenance-windows',
  register: (app, { db, now, config }) =>
    app.register(maintenanceWindowsRoutes, {
      windows: createMaintenanceWindows({
        db,
        now,
        groups: createGroupsService({ db, now, offlineMinutes: config.deviceOfflineMinutes }),
      }),
    }),
});
