import { defineModule } from '#api/app-module.ts';
import { rolesRoutes } from './roles-routes.ts';
import { createRolesService } from './roles-service.ts';

/** Roles and the permissions each carries (decisions 043 and 063). */
export const rolesModule = defineModule({
  name: 'roles',
  register: (app, { db, now }) => app.register(rolesRoutes, { roles: createRolesService({ db, now }) }),
});
