import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessLogListResponseSchema,
  errorLogListResponseSchema,
  logListQuerySchema,
} from '@app/contract/logs';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import type { LogsService } from './logs-service.ts';

export const logsRoutes: FastifyPluginAsyncZod<{ logs: LogsService }> = async (app, { logs }) => {
  app.get(
    apiPaths.accessLogsAll,
    {
      config: { access: 'admin', permission: 'logs.view' },
      schema: {
        tags: ['logs'],
        summary:
          'Access logs, newest first (filters: search, userId, machineNumber, recordId; `after` continues from the last page)',
        querystring: logListQuerySchema,
        response: { 200: accessLogListResponseSchema },
      },
    },
    async function listAccessLogs(request) {
      return ok(await logs.listAccess(request.query));
    },
  );

  app.get(
    apiPaths.errorLogsAll,
    {
      config: { access: 'admin', permission: 'logs.view' },
      schema: {
        tags: ['logs'],
        summary:
          'Error logs, newest first (filters: search, userId, machineNumber; `after` continues from the last page)',
        querystring: logListQuerySchema,
        response: { 200: errorLogListResponseSchema },
      },
    },
    async function listErrorLogs(request) {
      return ok(await logs.listErrors(request.query));
    },
  );
};
