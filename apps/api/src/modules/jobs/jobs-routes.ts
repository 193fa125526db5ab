import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jobsListResponseSchema, jobsPaths } from '@app/contract/jobs';
import { ok } from '#api/lib/envelope.ts';
import type { JobsService } from './jobs-service.ts';

/*
 * The Jobs screen's API: reading what the server did by itself and what failed, as the Admin Logs
 * and the Outbox are (logs.view).
 */
export const jobsRoutes: FastifyPluginAsyncZod<{ jobs: JobsService }> = async (app, { jobs }) => {
  app.get(
    jobsPaths.list,
    {
      config: { access: 'admin', permission: 'logs.view' },
      schema: {
        tags: ['jobs'],
        summary:
          'The periodic jobs: period, latest runs, failed tries in the last 24 h, dead-lettered runs and next run',
        response: { 200: jobsListResponseSchema },
      },
    },
    async function listJobs() {
      return ok(await jobs.list());
    },
  );
};
