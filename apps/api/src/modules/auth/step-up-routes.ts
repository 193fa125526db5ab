import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths } from '@app/contract/paths';
import { stepUpBodySchema, stepUpMessages, stepUpResponseSchema } from '@app/contract/step-up';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { StepUpService } from './step-up-service.ts';

export const stepUpRoutes: FastifyPluginAsyncZod<{ stepUp: StepUpService }> = async (app, { stepUp }) => {
  app.post(
    apiPaths.profileStepUp,
    {
      // A security event: its audit row says who confirmed (or failed to) and when, never what was typed.
      config: { access: 'admin', permission: 'any-admin', securityEvent: 'step-up' },
      schema: {
        tags: ['two-step sign-in'],
        summary:
          'Step-up: confirm your password (and your code when your two-step sign-in is on) before a dangerous action; answers until when it holds (5 minutes)',
        description:
          'A dangerous action without a fresh step-up answers 403 with data { stepUpRequired: true, needsCode }. A wrong password or code is a 400 naming the field; attempts are limited per user and per address (429 with Retry-After).',
        body: stepUpBodySchema,
        response: { 200: stepUpResponseSchema },
      },
    },
    async (request) =>
      ok(await stepUp.confirm(requireAuth(request), request.body, request.ip), stepUpMessages.confirmed),
  );
};
