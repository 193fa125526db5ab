import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths } from '@app/contract/paths';
import {
  treatmentIdParamSchema,
  treatmentListQuerySchema,
  treatmentListResponseSchema,
  treatmentResponseSchema,
} from '@app/contract/treatments';
import { ok } from '#api/lib/envelope.ts';
import type { TreatmentsService } from './treatments-service.ts';

export const treatmentsRoutes: FastifyPluginAsyncZod<{ treatments: TreatmentsService }> = async (
  app,
  { treatments },
) => {
  app.get(
    apiPaths.treatmentsAll,
    {
      config: { access: 'admin', permission: 'patients.view' },
      schema: {
        tags: ['treatments'],
        summary:
          'Treatment records, newest first; filter by machineNumber, doctorId, patientId; search patient name, plan, device',
        querystring: treatmentListQuerySchema,
        response: { 200: treatmentListResponseSchema },
      },
    },
    async (request) => ok(await treatments.list(request.query)),
  );
  app.get(
    apiPaths.treatment(':id'),
    {
      config: { access: 'admin', permission: 'patients.view' },
      schema: {
        tags: ['treatments'],
        summary: 'One treatment record with its images',
        params: treatmentIdParamSchema,
        response: { 200: treatmentResponseSchema },
      },
    },
    async (request) => {
      const treatment = await treatments.get(request.params.id);
      app.audit.recordView(request, {
        kind: 'treatment',
        id: treatment._id,
        machineNumber: treatment.machineNumber,
      });
      return ok(treatment);
    },
  );
};
