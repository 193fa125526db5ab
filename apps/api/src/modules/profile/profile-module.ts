import { defineModule } from '#api/app-module.ts';
import { profileRoutes } from './profile-routes.ts';

/** The signed-in admin's own profile and picture. */
export const profileModule = defineModule({
  name: 'profile',
  register: (app, { profiles }) => app.register(profileRoutes, { profiles }),
});
