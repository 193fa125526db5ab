import { defineModule } from '#api/app-module.ts';
import { accountRoutes } from './account-routes.ts';
import { createAccountService } from './account-service.ts';

/** Password recovery by a mailed code (public) and the signed-in admin's password change. */
export const accountModule = defineModule({
  name: 'account',
  async register(app, { db, mailer, config, log, now, throttleStore }) {
    const account = createAccountService({ db, mailer, secret: config.jwtSecret, log, now, throttleStore });
    app.decorate('account', account);
    await app.register(accountRoutes, { account });
  },
});
