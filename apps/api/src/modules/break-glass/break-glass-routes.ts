import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  breakGlassAccessResponseSchema,
  breakGlassBodySchema,
  breakGlassCountResponseSchema,
  breakGlassGrantResponseSchema,
  breakGlassIdParamSchema,
  breakGlassListQuerySchema,
  breakGlassListResponseSchema,
  breakGlassMessages,
  breakGlassSignOffBodySchema,
  type BreakGlassGrant,
} from '@app/contract/break-glass';
import { breakGlassPaths } from '@app/contract/break-glass-texts';
import { patientIdParamSchema } from '@app/contract/device-users';
import { ok } from '#api/lib/envelope.ts';
import { ForbiddenError } from '#api/lib/errors.ts';
import { actorOf, requireAuth } from '#api/lib/request-context.ts';
import type { BreakGlassService } from './break-glass-service.ts';

const tags = ['break-glass'];

/*
 * Break-glass access (decision 082). Declaring needs what reading a patient needs (patients.view) and
 * a fresh step-up, and is refused to a role that may reveal (it reveals, with a reason, and needs no
 * emergency). Each look at the unmasked patient is audited as a reveal whose reason names the
 * break-glass. Reviewing and signing off need security.review; the sign-off a step-up too, and never
 * by the admin who broke the glass.
 */
export const breakGlassRoutes: FastifyPluginAsyncZod<{ breakGlass: BreakGlassService }> = async (
  app,
  { breakGlass },
) => {
  /** The unmasked patient is accounted for before it leaves (decision 064), as a reveal. */
  const audited = (request: FastifyRequest, grant: BreakGlassGrant) =>
    app.audit.recordView(
      request,
      { kind: 'patient', id: grant.patient._id, machineNumber: grant.patient.machineNumber },
      { fields: ['email', 'phone'], reason: `break-glass: ${grant.access.reason}` },
    );

  app.post(
    breakGlassPaths.patient(':id'),
    {
      config: {
        access: 'admin',
        permission: 'patients.view',
        stepUp: true,
        securityEvent: 'break-glass',
        authorize: async (request) => {
          if (requireAuth(request).permissions.includes('patients.reveal'))
            throw new ForbiddenError(breakGlassMessages.mayReveal);
        },
      },
      schema: {
        tags,
        summary:
          "Declare an emergency with a reason: the patient's contact data unmasked for BREAK_GLASS_MINUTES, every security reviewer told at once",
        params: patientIdParamSchema,
        body: breakGlassBodySchema,
        response: { 201: breakGlassGrantResponseSchema },
      },
    },
    async function declareBreakGlass(request, reply) {
      const grant = await breakGlass.declare(actorOf(request), request.params.id, request.body.reason);
      await audited(request, grant);
      reply.code(201);
      return ok(grant, breakGlassMessages.declared);
    },
  );

  app.get(
    breakGlassPaths.patient(':id'),
    {
      config: { access: 'admin', permission: 'patients.view' },
      schema: {
        tags,
        summary: "The patient unmasked again while this admin's emergency access lasts (403 once it ended)",
        params: patientIdParamSchema,
        response: { 200: breakGlassGrantResponseSchema },
      },
    },
    async function useBreakGlass(request) {
      const grant = await breakGlass.use(actorOf(request), request.params.id);
      await audited(request, grant);
      return ok(grant);
    },
  );

  app.get(
    breakGlassPaths.list,
    {
      config: { access: 'admin', permission: 'security.review' },
      schema: {
        tags,
        summary: 'Emergency accesses awaiting sign-off (newest first) or signed off (latest sign-off first)',
        querystring: breakGlassListQuerySchema,
        response: { 200: breakGlassListResponseSchema },
      },
    },
    async function listBreakGlass(request) {
      return ok(await breakGlass.list(request.query));
    },
  );

  app.get(
    breakGlassPaths.count,
    {
      config: { access: 'admin', permission: 'security.review', backgroundRead: true },
      schema: {
        tags,
        summary: "How many emergency accesses await sign-off (the top bar's bell)",
        response: { 200: breakGlassCountResponseSchema },
      },
    },
    async function countOpenBreakGlass() {
      return ok(await breakGlass.openCount());
    },
  );

  app.post(
    breakGlassPaths.signOff(':id'),
    {
      config: {
        access: 'admin',
        permission: 'security.review',
        stepUp: true,
        authorize: (request) =>
          breakGlass.checkSigner(actorOf(request), (request.params as { id: string }).id),
      },
      schema: {
        tags,
        summary:
          'Sign off one emergency access with a note (name and time kept); never by its own admin; 409 if already signed off',
        params: breakGlassIdParamSchema,
        body: breakGlassSignOffBodySchema,
        response: { 200: breakGlassAccessResponseSchema },
      },
    },
    async function signOffBreakGlass(request) {
      const access = await breakGlass.signOff(actorOf(request), request.params.id, request.body.note);
      return ok(access, breakGlassMessages.signedOff);
    },
  );
};
