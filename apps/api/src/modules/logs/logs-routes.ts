import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessLogListResponseSchema,
  errorLogListResponseSchema,
  accessLogExportQuerySchema,
  errorLogExportQuerySchema,
  logListQuerySchema,
} from '@app/contract/logs';
import { apiPaths } from '@app/contract/paths';
import { csvExportRoute } from '#api/lib/csv-export.ts';
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

  // Each list as a CSV file: its filters, every matching row, streamed and audited (decision 056).
  const summary = (list: string) =>
    `The ${list} as a CSV file: the list's filters (search, userId, machineNumber, recordId, from, to) and the columns shown, in order; every matching row, streamed`;
  csvExportRoute(app, {
    path: apiPaths.accessLogsExport,
    permission: 'logs.view',
    tag: 'logs',
    summary: summary('access logs'),
    query: accessLogExportQuerySchema,
    list: 'access-logs',
    csv: logs.exportAccess,
  });
  csvExportRoute(app, {
    path: apiPaths.errorLogsExport,
    permission: 'logs.view',
    tag: 'logs',
    summary: summary('error logs'),
    query: errorLogExportQuerySchema,
    list: 'error-logs',
    csv: logs.exportErrors,
  });
};
