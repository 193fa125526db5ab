import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  outboxIdParamSchema,
  outboxListQuerySchema,
  outboxListResponseSchema,
  outboxMessageResponseSchema,
  outboxMessages,
  outboxPaths,
} from '@app/contract/outbox';
import { ok } from '#api/lib/envelope.ts';
import type { OutboxService } from './outbox-service.ts';

/*
 * The Outbox: reading it is reading what the server did and what failed, as the Admin Logs are
 * (logs.view); sending a failed message again is part of that care, and is audited as a write.
 */
export const outboxRoutes: FastifyPluginAsyncZod<{ outbox: OutboxService; delivers: boolean }> = async (
  app,
  { outbox, delivers },
) => {
  app.get(
    outboxPaths.list,
    {
      config: { access: 'admin', permission: 'logs.view' },
      schema: {
        tags: ['outbox'],
        summary: 'Every mail, newest first: recipient, subject, status, tries and last error (never a body)',
        querystring: outboxListQuerySchema,
        response: { 200: outboxListResponseSchema },
      },
    },
    async function listOutbox(request) {
      return ok({ ...(await outbox.list(request.query)), delivers });
    },
  );

  app.get(
    outboxPaths.message(':id'),
    {
      config: { access: 'admin', permission: 'logs.view' },
      schema: {
        tags: ['outbox'],
        summary: 'One mail, with its text unless it holds a one-time code or a link',
        params: outboxIdParamSchema,
        response: { 200: outboxMessageResponseSchema },
      },
    },
    async function getOutboxMessage(request) {
      return ok(await outbox.get(request.params.id));
    },
  );

  app.post(
    outboxPaths.resend(':id'),
    {
      config: { access: 'admin', permission: 'logs.view' },
      schema: {
        tags: ['outbox'],
        summary: 'Send a failed mail again: due now, with a fresh set of tries (409 for any other status)',
        params: outboxIdParamSchema,
        response: { 200: outboxMessageResponseSchema },
      },
    },
    async function resendOutboxMessage(request) {
      return ok(await outbox.resend(request.params.id), outboxMessages.resent);
    },
  );
};
