import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyResponseSchema } from '@app/contract/auth';
import {
  appLoginBodySchema,
  appMeResponseSchema,
  appRefreshBodySchema,
  appSessionResponseSchema,
} from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireAppUser, requireDevice } from '#api/lib/request-context.ts';
import type { AppSessionsService } from './app-sessions-service.ts';

const onDevice = [{ device: [] }];
const asPerson = [{ device: [], appSession: [] }];

/** Doctors and technicians signing in on the machine: a session bound to the machine and the person. */
export const appSessionRoutes: FastifyPluginAsyncZod<{ sessions: AppSessionsService }> = async (
  app,
  { sessions },
) => {
  app.post(
    apiPaths.appLogin,
    {
      config: { access: 'device', securityEvent: 'app.login' },
      schema: {
        tags: ['device'],
        summary: 'Sign a doctor or technician of this machine in',
        description:
          'A doctor registered on this machine, or a technician (a user of an app role) assigned to it. Answers an access token ' +
          '(15 minutes, sent as `X-App-Session`) and a refresh token (30 days, one use). Wrong tries per user name on this machine ' +
          'are throttled (429 with Retry-After).',
        body: appLoginBodySchema.meta({ examples: [{ username: 'dr.meyer', password: 'correct horse' }] }),
        response: { 200: appSessionResponseSchema },
        security: onDevice,
      },
    },
    async (request) => {
      const session = await sessions.login(requireDevice(request), request.body, (who) => {
        request.securitySubject = who;
      });
      return ok(session, 'Login successful');
    },
  );

  app.post(
    apiPaths.appTokenRefresh,
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: 'Trade a refresh token for a new pair (the old refresh token dies)',
        body: appRefreshBodySchema,
        response: { 200: appSessionResponseSchema },
        security: onDevice,
      },
    },
    async (request) => ok(await sessions.refresh(requireDevice(request), request.body.refreshToken)),
  );

  app.post(
    apiPaths.appLogout,
    {
      config: { access: 'app-user', securityEvent: 'app.logout' },
      schema: {
        tags: ['device'],
        summary: 'Sign the person out (ends this session)',
        response: { 200: emptyResponseSchema },
        security: asPerson,
      },
    },
    async (request) => {
      const user = requireAppUser(request);
      request.securitySubject = { userId: String(user.userId), email: user.email };
      await sessions.logout(user.sessionId);
      return ok(null, 'Logged out');
    },
  );

  app.get(
    apiPaths.appMe,
    {
      config: { access: 'app-user' },
      schema: {
        tags: ['device'],
        summary: 'Who is signed in, on which machine',
        response: { 200: appMeResponseSchema },
        security: asPerson,
      },
    },
    async (request) => ok(sessions.me(requireAppUser(request), requireDevice(request))),
  );
};
