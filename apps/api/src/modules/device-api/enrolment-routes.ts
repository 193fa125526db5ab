import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyResponseSchema } from '@app/contract/auth';
import { deviceApiMessages, enrolBodySchema, enrolResponseSchema } from '@app/contract/device-api';
import { enrolmentCodeResponseSchema, enrolmentStatusResponseSchema } from '@app/contract/device-enrolment';
import { deviceIdParamSchema } from '@app/contract/devices';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { EnrolmentService } from './enrolment-service.ts';

/** Enrolment: the console's controls on Device Details, and the machine trading its code for a credential. */
export const enrolmentRoutes: FastifyPluginAsyncZod<{ enrolment: EnrolmentService }> = async (
  app,
  { enrolment },
) => {
  app.get(
    apiPaths.machineEnrolment(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary: "The device's enrolment: credential live or revoked, a code waiting, last seen",
        params: deviceIdParamSchema,
        response: { 200: enrolmentStatusResponseSchema },
      },
    },
    async (request) => ok(await enrolment.status(request.params.id)),
  );

  app.post(
    apiPaths.machineEnrolmentCode(':id'),
    {
      config: { access: 'admin', permission: 'devices.enrol', securityEvent: 'device.enrolment-code' },
      schema: {
        tags: ['devices'],
        summary: 'Issue a one-time enrolment code (24 h, single use; voids an older unused one)',
        description:
          'Answers the code (XXXXX-XXXXX) and its QR code once; only its HMAC is stored. A device already enrolled keeps its credential until the machine enrols with the new code.',
        params: deviceIdParamSchema,
        response: { 200: enrolmentCodeResponseSchema },
      },
    },
    async (request) => {
      const { machineNumber, ...code } = await enrolment.issueCode(
        request.params.id,
        requireAuth(request).userId,
      );
      request.auditMachineNumber = machineNumber;
      return ok(code, deviceApiMessages.codeIssued);
    },
  );

  app.post(
    apiPaths.machineEnrolmentRevoke(':id'),
    {
      // A revoked machine stops working at once: a fresh step-up first (decision 046).
      config: { access: 'admin', permission: 'devices.enrol', securityEvent: 'device.revoke', stepUp: true },
      schema: {
        tags: ['devices'],
        summary: "Revoke the device's credential and every app session on it; voids a waiting code",
        params: deviceIdParamSchema,
        response: { 200: emptyResponseSchema },
      },
    },
    async (request) => {
      const device = await enrolment.deviceOf(request.params.id);
      request.auditMachineNumber = device.machineNumber;
      await enrolment.revoke(device.id);
      return ok(null, deviceApiMessages.revoked);
    },
  );

  app.post(
    apiPaths.appEnrol,
    {
      config: { access: 'public', securityEvent: 'device.enrol' },
      schema: {
        tags: ['device'],
        summary: 'Enrol this machine with the code from the console',
        description:
          'Answers the device credential once; send it as `Authorization: Device <credential>` on every later call. ' +
          'A wrong, used, voided or expired code gets the same 400; wrong codes are throttled per address (429 with Retry-After). ' +
          "Enrolling again replaces the machine's previous credential and ends its app sessions.",
        body: enrolBodySchema.meta({ examples: [{ code: '7K3QX-M9D2P' }] }),
        response: { 200: enrolResponseSchema },
        security: [],
      },
    },
    async (request) => {
      const result = await enrolment.enrol(request.body.code, request.ip);
      request.auditMachineNumber = result.machineNumber;
      return ok(result, 'Enrolled');
    },
  );
};
