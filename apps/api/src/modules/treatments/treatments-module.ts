import { defineModule } from '#api/app-module.ts';
import { treatmentsRoutes } from './treatments-routes.ts';
import { createTreatmentsService } from './treatments-service.ts';

/** Treatment records as the console reads them (health data). */
export const treatmentsModule = defineModule({
  name: 'treatments',
  register: (app, { db }) => app.register(treatmentsRoutes, { treatments: createTreatmentsService({ db }) }),
});
