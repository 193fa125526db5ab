import { defineModule } from '#api/app-module.ts';
import { preferencesRoutes } from './preferences-routes.ts';
import { createPreferencesService } from './preferences-service.ts';

/** Each admin's list preferences, saved views and colour mode (decisions 053, 054, 057). */
export const preferencesModule = defineModule({
  name: 'preferences',
  register: (app, { db, now }) =>
    app.register(preferencesRoutes, { preferences: createPreferencesService({ db, now }) }),
});
