import { defineModule } from '#api/app-module.ts';
import { logsRoutes } from './logs-routes.ts';
import { createLogsService } from './logs-service.ts';

/** Admin Logs: the access and error logs (the audit trail, decision 013). */
export const logsModule = defineModule({
  name: 'logs',
  register: (app, { db }) => app.register(logsRoutes, { logs: createLogsService({ db }) }),
});
