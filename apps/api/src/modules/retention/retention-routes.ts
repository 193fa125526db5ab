import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageQuery } from '@app/contract/fields';
import {
  legalHoldBodySchema,
  legalHoldIdParamSchema,
  legalHoldLiftBodySchema,
  legalHoldListQuerySchema,
  legalHoldListResponseSchema,
  legalHoldResponseSchema,
  retentionMessages,
  retentionRunListResponseSchema,
  retentionScheduleResponseSchema,
  type RetentionSchedule,
} from '@app/contract/retention';
import { retentionPaths } from '@app/contract/retention-texts';
import { ok } from '#api/lib/envelope.ts';
import { actorOf } from '#api/lib/request-context.ts';
import type { LegalHolds } from './legal-holds-service.ts';
import type { Retention } from './retention-service.ts';

const tags = ['retention'];

/*
 * Retention (decision 086). The schedule and the runs are for every admin to read; legal holds are
 * read, placed and lifted with retention.manage. Each placement and lift is an audited write (the
 * request's row names the hold), with the admin's reason kept on the hold.
 */
export const retentionRoutes: FastifyPluginAsyncZod<{
  schedule: () => RetentionSchedule;
  retention: Retention;
  holds: LegalHolds;
}> = async (app, { schedule, retention, holds }) => {
  app.get(
    retentionPaths.schedule,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags,
        summary:
          'The retention schedule: each record type, its period and country overrides, and whether it is deleted or anonymised',
        response: { 200: retentionScheduleResponseSchema },
      },
    },
    async function getRetentionSchedule() {
      return ok(schedule());
    },
  );

  app.get(
    retentionPaths.runs,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags,
        summary: 'The retention runs, newest first, with what each removed per record type',
        querystring: pageQuery,
        response: { 200: retentionRunListResponseSchema },
      },
    },
    async function listRetentionRuns(request) {
      return ok(await retention.runs(request.query));
    },
  );

  app.get(
    retentionPaths.holds,
    {
      config: { access: 'admin', permission: 'retention.manage' },
      schema: {
        tags,
        summary: 'Legal holds, newest first; state=active or lifted keeps one kind',
        querystring: legalHoldListQuerySchema,
        response: { 200: legalHoldListResponseSchema },
      },
    },
    async function listLegalHolds(request) {
      return ok(await holds.list(request.query));
    },
  );

  app.post(
    retentionPaths.holds,
    {
      config: { access: 'admin', permission: 'retention.manage' },
      schema: {
        tags,
        summary:
          'Place a legal hold on a patient or a machine (all its patients and records) with a reason: retention removes nothing of it while it is in force',
        body: legalHoldBodySchema,
        response: { 201: legalHoldResponseSchema },
      },
    },
    async function placeLegalHold(request, reply) {
      const hold = await holds.place(actorOf(request), request.body);
      reply.code(201);
      return ok(hold, retentionMessages.placed);
    },
  );

  app.post(
    retentionPaths.lift(':id'),
    {
      config: { access: 'admin', permission: 'retention.manage' },
      schema: {
        tags,
        summary: 'Lift a legal hold with a reason (kept with the hold); 409 when it is already lifted',
        params: legalHoldIdParamSchema,
        body: legalHoldLiftBodySchema,
        response: { 200: legalHoldResponseSchema },
      },
    },
    async function liftLegalHold(request) {
      return ok(
        await holds.lift(actorOf(request), request.params.id, request.body.reason),
        retentionMessages.lifted,
      );
    },
  );
};
