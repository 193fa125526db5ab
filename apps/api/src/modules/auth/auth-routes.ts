import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emptyResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  signInMessages,
} from '@app/contract/auth';
import { mfaMessages } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { AuthService } from './auth-service.ts';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    apiPaths.login,
    {
      config: { access: 'public', securityEvent: 'login' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        description:
          'Answers `{ accessToken, admin }`, or, when a second step is due, `{ mfa: "verify" | "enrol", mfaToken }` and no session: see the login/mfa routes.',
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => {
      const result = await auth.login({
        ...request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      if ('mfa' in result)
        return ok(result, result.mfa === 'verify' ? mfaMessages.codeStep : mfaMessages.enrolStep);
      // A clinic user's sign-in is their clinic's, in the audit trail (decision 088).
      request.auditCustomerId = result.admin.clinic?._id;
      return ok(result, 'Login successful');
    },
  );

  app.post(
    apiPaths.logout,
    {
      config: { access: 'admin', permission: 'any-admin', securityEvent: 'logout' },
      schema: {
        tags: ['auth'],
        summary: 'Sign out (revokes this session)',
        response: { 200: emptyResponseSchema },
      },
    },
    async (request) => {
      await auth.logout(requireAuth(request).sessionId);
      return ok(null, signInMessages.loggedOut);
    },
  );
};
