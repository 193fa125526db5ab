import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  doctorIdParamSchema,
  doctorResponseSchema,
  patientIdParamSchema,
  patientResponseSchema,
} from '@app/contract/device-users';
import type { Envelope } from '@app/contract/envelope';
import { pageQuery } from '@app/contract/fields';
import { accessHistoryResponseSchema, revealBodySchema } from '@app/contract/masking';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import type { DeviceUsersService } from './device-users-service.ts';
import type { RecordAccessHistory } from './record-access-history.ts';

type Revealable = { _id: string; machineNumber: string };

/** One kind of record whose contact data is masked: its reveal route and its access history. */
type RevealSpec<One extends Revealable> = {
  kind: 'patient' | 'doctor';
  revealPath: string;
  historyPath: string;
  params: z.ZodType<{ id: string }>;
  response: z.ZodType<Envelope<One>>;
  get: (id: string) => Promise<One>;
  /** The masked fields a reveal shows, named in its audit row. */
  fields: readonly string[];
  summary: string;
};

function revealRoutes<One extends Revealable>(
  app: FastifyInstance,
  accessHistory: RecordAccessHistory,
  spec: RevealSpec<One>,
) {
  const tags = ['device users'];
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    spec.revealPath,
    {
      config: { access: 'admin', permission: 'patients.reveal' },
      schema: {
        tags,
        summary: `${spec.summary}, unmasked, with a reason that the audit trail keeps`,
        params: spec.params,
        body: revealBodySchema,
        response: { 200: spec.response },
      },
    },
    async (request) => {
      const record = await spec.get(request.params.id);
      await app.audit.recordView(
        request,
        { kind: spec.kind, id: record._id, machineNumber: record.machineNumber },
        { fields: spec.fields, reason: reasonOf(request.body) },
      );
      return ok(record);
    },
  );
  typed.get(
    spec.historyPath,
    {
      config: { access: 'admin', permission: 'patients.reveal' },
      schema: {
        tags,
        summary: `Who viewed this ${spec.kind}'s record or revealed its contact data, newest first`,
        params: spec.params,
        querystring: pageQuery,
        response: { 200: accessHistoryResponseSchema },
      },
    },
    async (request) => {
      // An unknown id is a 404, not an empty history.
      await spec.get(request.params.id);
      return ok(await accessHistory(spec.kind, request.params.id, request.query));
    },
  );
}

/**
 * Decision 045: a patient's or doctor's masked contact data, shown to an admin with
 * patients.reveal who gives a reason (the audit row names the fields and the reason), and the
 * record's access history, readable with the same permission.
 */
export const contactRevealRoutes: FastifyPluginAsyncZod<{
  deviceUsers: DeviceUsersService;
  accessHistory: RecordAccessHistory;
}> = async (app, { deviceUsers, accessHistory }) => {
  revealRoutes(app, accessHistory, {
    kind: 'patient',
    revealPath: apiPaths.patientReveal(':id'),
    historyPath: apiPaths.patientAccessHistory(':id'),
    params: patientIdParamSchema,
    response: patientResponseSchema,
    get: deviceUsers.getPatient,
    fields: ['email', 'phone'],
    summary: "A patient's email and phone",
  });
  revealRoutes(app, accessHistory, {
    kind: 'doctor',
    revealPath: apiPaths.doctorReveal(':id'),
    historyPath: apiPaths.doctorAccessHistory(':id'),
    params: doctorIdParamSchema,
    response: doctorResponseSchema,
    get: deviceUsers.getDoctor,
    fields: ['email', 'phone', 'address'],
    summary: "A doctor's email, phone and address",
  });
};

const reasonOf = (body: { reason: string; note?: string }) =>
  body.note?.trim() ? `${body.reason}: ${body.note.trim()}` : body.reason;
