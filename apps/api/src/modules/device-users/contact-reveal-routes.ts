import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  doctorIdParamSchema,
  doctorResponseSchema,
  patientIdParamSchema,
  patientResponseSchema,
} from '@app/contract/device-users';
import { accessHistoryResponseSchema, revealBodySchema } from '@app/contract/masking';
import { pageQuery } from '@app/contract/fields';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import type { DeviceUsersService } from './device-users-service.ts';
import type { RecordAccessHistory } from './record-access-history.ts';

/**
 * Decision 045: a patient's or doctor's masked contact data, shown to an admin with
 * patients.reveal who gives a reason (the audit row names the fields and the reason), and the
 * record's access history, readable with the same permission.
 */
export const contactRevealRoutes: FastifyPluginAsyncZod<{
  deviceUsers: DeviceUsersService;
  accessHistory: RecordAccessHistory;
}> = async (app, { deviceUsers, accessHistory }) => {
  const tags = ['device users'];
  app.post(
    apiPaths.patientReveal(':id'),
    {
      config: { access: 'admin', permission: 'patients.reveal' },
      schema: {
        tags,
        summary: "A patient's email and phone, unmasked, with a reason that the audit trail keeps",
        params: patientIdParamSchema,
        body: revealBodySchema,
        response: { 200: patientResponseSchema },
      },
    },
    async (request) => {
      const patient = await deviceUsers.getPatient(request.params.id);
      app.audit.recordView(
        request,
        { kind: 'patient', id: patient._id, machineNumber: patient.machineNumber },
        { fields: ['email', 'phone'], reason: reasonOf(request.body) },
      );
      return ok(patient);
    },
  );
  app.post(
    apiPaths.doctorReveal(':id'),
    {
      config: { access: 'admin', permission: 'patients.reveal' },
      schema: {
        tags,
        summary: "A doctor's email, phone and address, unmasked, with a reason that the audit trail keeps",
        params: doctorIdParamSchema,
        body: revealBodySchema,
        response: { 200: doctorResponseSchema },
      },
    },
    async (request) => {
      const doctor = await deviceUsers.getDoctor(request.params.id);
      app.audit.recordView(
        request,
        { kind: 'doctor', id: doctor._id, machineNumber: doctor.machineNumber },
        { fields: ['email', 'phone', 'address'], reason: reasonOf(request.body) },
      );
      return ok(doctor);
    },
  );
  for (const kind of ['patient', 'doctor'] as const) {
    app.get(
      kind === 'patient' ? apiPaths.patientAccessHistory(':id') : apiPaths.doctorAccessHistory(':id'),
      {
        config: { access: 'admin', permission: 'patients.reveal' },
        schema: {
          tags,
          summary: `Who viewed this ${kind}'s record or revealed its contact data, newest first`,
          params: kind === 'patient' ? patientIdParamSchema : doctorIdParamSchema,
          querystring: pageQuery,
          response: { 200: accessHistoryResponseSchema },
        },
      },
      async (request) => {
        // An unknown id is a 404, not an empty history.
        if (kind === 'patient') await deviceUsers.getPatient(request.params.id);
        else await deviceUsers.getDoctor(request.params.id);
        return ok(await accessHistory(kind, request.params.id, request.query));
      },
    );
  }
};

const reasonOf = (body: { reason: string; note?: string }) =>
  body.note?.trim() ? `${body.reason}: ${body.note.trim()}` : body.reason;
