import { defineModule } from '#api/app-module.ts';
import { dashboardRoutes } from './dashboard-routes.ts';
import { createDashboardService } from './dashboard-service.ts';

/** The dashboard's figures (decision 050). */
export const dashboardModule = defineModule({
  name: 'dashboard',
  register: (app, { db, now, config }) =>
    app.register(dashboardRoutes, {
      dashboard: createDashboardService({ db, now, offlineMinutes: config.deviceOfflineMinutes }),
    }),
});
