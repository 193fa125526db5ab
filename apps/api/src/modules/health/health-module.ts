import { defineModule } from '#api/app-module.ts';
import { healthRoutes } from './health-routes.ts';

/** `/api/health`: whether this instance and its database answer (load balancers ask it). */
export const healthModule = defineModule({
  name: 'health',
  register: (app, { database }) => app.register(healthRoutes, { ping: database.ping }),
});
