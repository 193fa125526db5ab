import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceIdParamSchema } from '@app/contract/devices';
import { envelope } from '@app/contract/envelope';
import {
  endExemptionBodySchema,
  exemptionBodySchema,
  licenceMessages,
  licencePaths,
  licenceResponseSchema,
} from '@app/contract/licences';
import { z } from 'zod';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import type { Licences } from './licences-service.ts';

const doneSchema = envelope(z.null());

/*
 * A machine's licence in the console (decision 068). Reading it is part of seeing the machine;
 * exempting it gives service without payment, so it needs licences.manage and a fresh step-up.
 */
export const licencesRoutes: FastifyPluginAsyncZod<{ licences: Licences }> = async (app, { licences }) => {
  const auditDevice = (request: { params: unknown; auditRecord?: unknown }) => {
    request.auditRecord = { kind: 'device', id: (request.params as { id: string }).id };
  };

  app.get(
    licencePaths.deviceLicence(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['licences'],
        summary: "A machine's licence: state, paid through, grace until, exemption and history",
        params: deviceIdParamSchema,
        response: { 200: licenceResponseSchema },
      },
    },
    async function getLicence(request) {
      return ok(await licences.get(request.params.id));
    },
  );

  app.put(
    licencePaths.deviceExemption(':id'),
    {
      config: { access: 'admin', permission: 'licences.manage', stepUp: true },
      schema: {
        tags: ['licences'],
        summary: 'Exempt a machine (loaner, trial, service) until the end of a day, with a reason (step-up)',
        params: deviceIdParamSchema,
        body: exemptionBodySchema,
        response: { 200: licenceResponseSchema },
      },
    },
    async function exemptDevice(request) {
      auditDevice(request);
      await licences.exempt(request.params.id, request.body, historyActorOf(request));
      return ok(await licences.get(request.params.id), licenceMessages.exempted);
    },
  );

  app.post(
    `${licencePaths.deviceExemption(':id')}/end`,
    {
      config: { access: 'admin', permission: 'licences.manage', stepUp: true },
      schema: {
        tags: ['licences'],
        summary: "End a machine's exemption now, with a reason (step-up); its subscriptions decide again",
        params: deviceIdParamSchema,
        body: endExemptionBodySchema,
        response: { 200: doneSchema },
      },
    },
    async function endExemption(request) {
      auditDevice(request);
      await licences.endExemption(request.params.id, request.body.reason, historyActorOf(request));
      return ok(null, licenceMessages.exemptionEnded);
    },
  );
};
