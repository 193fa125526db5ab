import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths } from '@app/contract/paths';
import {
  treatmentExportQuerySchema,
  treatmentFacetsQuerySchema,
  treatmentFacetsResponseSchema,
  treatmentIdParamSchema,
  treatmentListQuerySchema,
  treatmentListResponseSchema,
  treatmentResponseSchema,
} from '@app/contract/treatments';
import { csvExportRoute } from '#api/lib/csv-export.ts';
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
          'Treatment records, the latest started first; filter by machineNumber, doctorId, patientId, treatmentPlan, treatmentDevice and UTC days; search patient name, plan, device',
        querystring: treatmentListQuerySchema,
        response: { 200: treatmentListResponseSchema },
      },
    },
    async (request) => ok(await treatments.list(request.query)),
  );
  app.get(
    apiPaths.treatmentsFacets,
    {
      config: { access: 'admin', permission: 'patients.view' },
      schema: {
        tags: ['treatments'],
        summary:
          "Treatment Records' facets: the plans and treatment devices under the list's other filters, each with its count",
        querystring: treatmentFacetsQuerySchema,
        response: { 200: treatmentFacetsResponseSchema },
      },
    },
    async (request) => ok(await treatments.facets(request.query)),
  );
  csvExportRoute(app, {
    path: apiPaths.treatmentsExport,
    permission: 'patients.view',
    tag: 'treatments',
    summary:
      "Treatment records as a CSV file: the list's filters and columns, the patient's name masked unless reveal=true (patients.reveal)",
    query: treatmentExportQuerySchema,
    list: 'treatments',
    csv: treatments.exportCsv,
    // Unmasked names need patients.reveal, and the audit row says so (decision 058).
    unmasked: (q) => q.reveal === 'true',
  });
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
      await app.audit.recordView(request, {
        kind: 'treatment',
        id: treatment._id,
        machineNumber: treatment.machineNumber,
      });
      return ok(treatment);
    },
  );
};
