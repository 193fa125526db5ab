import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';

const healthSchema = envelope(
  z.object({ status: z.enum(['ready', 'unavailable']), database: z.enum(['up', 'down']) }),
);

export const healthRoutes: FastifyPluginAsyncZod<{ ping: () => Promise<void> }> = async (app, { ping }) => {
  app.get(
    apiPaths.health,
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Ready when the database answers',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      try {
        await ping();
        return { code: 200, msg: 'ok', data: { status: 'ready' as const, database: 'up' as const } };
      } catch {
        return reply.code(503).send({
          code: 503,
          msg: 'Database unavailable',
          data: { status: 'unavailable', database: 'down' },
        });
      }
    },
  );
};
