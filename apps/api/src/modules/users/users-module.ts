import { defineModule } from '#api/app-module.ts';
import { usersRoutes } from './users-routes.ts';
import { createUsersService } from './users-service.ts';

/** User Management: console and app users, and the roles they hold. */
export const usersModule = defineModule({
  name: 'users',
  register: (app, { db, now, mailer }) =>
    app.register(usersRoutes, { users: createUsersService({ db, now, mailer }) }),
});
