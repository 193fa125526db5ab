import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appUpdateIdParamSchema } from '@app/contract/app-updates';
import { doctorIdParamSchema, patientIdParamSchema } from '@app/contract/device-users';
import { deviceIdParamSchema } from '@app/contract/devices';
import { pageQuery } from '@app/contract/fields';
import { groupIdParamSchema } from '@app/contract/groups';
import type { RoutePermission } from '@app/contract/permissions';
import {
  historyMaskedFields,
  historyRevealBodySchema,
  recordHistoryPaths,
  recordHistoryResponseSchema,
  type HistoryKind,
} from '@app/contract/record-history';
import { roleIdParamSchema } from '@app/contract/roles';
import { subscriptionIdParam } from '@app/contract/subscriptions';
import { userIdParamSchema } from '@app/contract/users';
import { ok } from '#api/lib/envelope.ts';
import type { RecordHistoryService } from './record-history-service.ts';

/** The fleet's default settings are one record with no id of its own. */
const fleetId = 'fleet';
const noParams = z.object({}).strict();

/**
 * Where each record's history is read, and with what: the permission that lets an admin see the
 * record itself (decision 047), so the history shows nobody more than its page does.
 */
const readable: {
  kind: HistoryKind;
  path: string;
  params: z.ZodType<{ id?: string }>;
  permission: RoutePermission;
  /** Health data: the read is a view of the record, in its access history (decision 064). */
  healthRecord?: 'doctor' | 'patient';
}[] = [
  {
    kind: 'device',
    path: recordHistoryPaths.device(':id'),
    params: deviceIdParamSchema,
    permission: 'devices.view',
  },
  {
    kind: 'user',
    path: recordHistoryPaths.user(':id'),
    params: userIdParamSchema,
    permission: 'users.manage',
  },
  { kind: 'role', path: recordHistoryPaths.role(':id'), params: roleIdParamSchema, permission: 'any-admin' },
  {
    kind: 'subscription',
    path: recordHistoryPaths.subscription(':id'),
    params: subscriptionIdParam,
    permission: 'subscriptions.view',
  },
  {
    kind: 'app-update',
    path: recordHistoryPaths.appUpdate(':id'),
    params: appUpdateIdParamSchema,
    permission: 'devices.view',
  },
  {
    kind: 'group',
    path: recordHistoryPaths.group(':id'),
    params: groupIdParamSchema,
    permission: 'devices.view',
  },
  {
    kind: 'fleet-settings',
    path: recordHistoryPaths.fleetSettings,
    params: noParams,
    permission: 'devices.view',
  },
  {
    kind: 'doctor',
    path: recordHistoryPaths.doctor(':id'),
    params: doctorIdParamSchema,
    permission: 'patients.view',
    healthRecord: 'doctor',
  },
  {
    kind: 'patient',
    path: recordHistoryPaths.patient(':id'),
    params: patientIdParamSchema,
    permission: 'patients.view',
    healthRecord: 'patient',
  },
];

const revealable = [
  { kind: 'doctor', path: recordHistoryPaths.doctorReveal(':id'), params: doctorIdParamSchema },
  { kind: 'patient', path: recordHistoryPaths.patientReveal(':id'), params: patientIdParamSchema },
] as const;

const reasonOf = (body: { reason: string; note?: string }) =>
  body.note?.trim() ? `${body.reason}: ${body.note.trim()}` : body.reason;

/**
 * Decision 081: the change history of each regulated record, newest first and paged. A patient's or
 * doctor's contact data stays masked in it, unless an admin with patients.reveal reveals the page
 * with a reason, written to the audit trail before the answer as the record's own reveal is.
 */
export const recordHistoryRoutes: FastifyPluginAsyncZod<{ history: RecordHistoryService }> = async (
  app,
  { history },
) => {
  for (const spec of readable) readRoute(app, history, spec);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const spec of revealable)
    typed.post(
      spec.path,
      {
        config: { access: 'admin', permission: 'patients.reveal' },
        schema: {
          tags: ['record history'],
          summary: `A page of a ${spec.kind}'s change history with its contact data unmasked, for a reason the audit trail keeps`,
          params: spec.params,
          body: historyRevealBodySchema,
          response: { 200: recordHistoryResponseSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { page, limit } = request.body;
        await app.audit.recordView(
          request,
          { kind: spec.kind, id },
          { fields: historyMaskedFields[spec.kind] ?? [], reason: `history; ${reasonOf(request.body)}` },
        );
        return ok(await history(spec.kind, id, { page, limit }, { revealed: true }));
      },
    );
};

function readRoute(app: FastifyInstance, history: RecordHistoryService, spec: (typeof readable)[number]) {
  app.withTypeProvider<ZodTypeProvider>().get(
    spec.path,
    {
      config: { access: 'admin', permission: spec.permission },
      schema: {
        tags: ['record history'],
        summary: `A ${spec.kind === 'fleet-settings' ? "fleet's default settings" : spec.kind}'s change history: each changed field with its old and new value, who, when, from which session and why, newest first`,
        ...(spec.kind === 'fleet-settings' ? {} : { params: spec.params }),
        querystring: pageQuery,
        response: { 200: recordHistoryResponseSchema },
      },
    },
    async (request) => {
      const id = (request.params as { id?: string }).id ?? fleetId;
      if (spec.healthRecord) await app.audit.recordView(request, { kind: spec.healthRecord, id });
      return ok(await history(spec.kind, id, request.query));
    },
  );
}
