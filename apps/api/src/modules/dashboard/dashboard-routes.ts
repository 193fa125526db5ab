import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operationsResponseSchema } from '@app/contract/dashboard';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { DashboardService } from './dashboard-service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.get(
    apiPaths.dashboardOperations,
    {
      // Every admin sees the dashboard; each figure answers only to its own permission (decision 050).
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags: ['dashboard'],
        summary:
          "The dashboard's Operations figures: machines (devices.view), open alarms (devices.view), licences in grace, lapsed and lapsing (devices.view), subscriptions (subscriptions.view), treatments (patients.view)",
        response: { 200: operationsResponseSchema },
      },
    },
    async (request) => ok(await dashboard.operations(requireAuth(request).permissions)),
  );
};
