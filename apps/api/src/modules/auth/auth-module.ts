import { defineModule } from '#api/app-module.ts';
import { authRoutes } from './auth-routes.ts';
import { mfaRoutes } from './mfa-routes.ts';
import { sessionRoutes } from './session-routes.ts';
import { stepUpRoutes } from './step-up-routes.ts';

/**
 * Console sign-in: password and two-step sign-in, the session's keep-alive, sign-out and the step-up.
 * Its services are shared (app-services.ts): the auth hook reads sessions on every request.
 */
export const authModule = defineModule({
  name: 'auth',
  async register(app, { auth, mfa, stepUp, activity, now }) {
    await app.register(authRoutes, { auth });
    await app.register(mfaRoutes, { auth, mfa });
    await app.register(stepUpRoutes, { stepUp });
    await app.register(sessionRoutes, { activity, now });
  },
});
