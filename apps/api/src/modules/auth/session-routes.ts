import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths } from '@app/contract/paths';
import { sessionInfoResponseSchema, sessionMessages } from '@app/contract/session';
import { sessionExpiresInHeader } from '#api/lib/auth-hook.ts';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { SessionActivity } from './session-activity.ts';

/** The session's clock for the console's idle warning; calling it is the "Stay signed in". */
export const sessionRoutes: FastifyPluginAsyncZod<{ activity: SessionActivity; now: () => Date }> = async (
  app,
  { activity, now },
) => {
  app.get(
    apiPaths.session,
    {
      config: { access: 'admin', permission: 'any-admin', backgroundRead: true },
      schema: {
        tags: ['auth'],
        summary:
          'The signed-in session: idle timeout and time left; counts as activity (keeps an idle session alive)',
        response: { 200: sessionInfoResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const endsAt = await activity.keepAlive({ id: auth.sessionId, expiresAt: auth.expiresAt });
      const expiresInSeconds = Math.max(0, Math.floor((endsAt.getTime() - now().getTime()) / 1000));
      reply.header(sessionExpiresInHeader, String(expiresInSeconds));
      return ok(
        {
          idleTimeoutSeconds: activity.idleSeconds,
          expiresInSeconds,
          expiresAt: auth.expiresAt.toISOString(),
        },
        sessionMessages.kept,
      );
    },
  );
};
