import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bulkBodyBytes } from '@app/contract/bulk-actions';
import {
  approveCommandBatchBodySchema,
  commandBatchIdParamSchema,
  commandBatchMessages,
  commandBatchPaths,
  commandBatchResponseSchema,
  sendCommandBatchBodySchema,
  type SendCommandBatchBody,
} from '@app/contract/command-batches';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { CommandBatches } from './command-batches-service.ts';
import { mayDisrupt } from './may-disrupt.ts';
import { signerOf } from '../signatures/signature-service.ts';

/*
 * One command to several machines (decision 077): picked, all matching Device Management's filters,
 * or a group. Sending and approving are dangerous whatever the kind (many machines at once): both
 * need a fresh step-up, and with ROLLOUT_SECOND_ADMIN on a second admin approves.
 */
export const commandBatchesRoutes: FastifyPluginAsyncZod<{ batches: CommandBatches }> = async (
  app,
  { batches },
) => {
  app.post(
    commandBatchPaths.send,
    {
      config: {
        access: 'admin',
        permission: 'commands.send',
        authorize: async (request) => mayDisrupt(request, (request.body as SendCommandBatchBody).kind),
        stepUp: true,
      },
      bodyLimit: bulkBodyBytes,
      schema: {
        tags: ['commands'],
        summary: 'Send a command to several machines: picked (ids), all matching (allMatching) or a group',
        description:
          'Each machine gets its own copy. With second-admin approval on (ROLLOUT_SECOND_ADMIN) the batch ' +
          'waits for another admin; a group or filter is resolved when the copies are made.',
        body: sendCommandBatchBodySchema,
        response: { 201: commandBatchResponseSchema },
      },
    },
    async function sendCommandBatch(request, reply) {
      const batch = await batches.send(request.body, requireAuth(request));
      request.auditRecord = { kind: 'command-batch', id: batch._id };
      reply.code(201);
      return ok(
        batch,
        batch.state === 'awaiting-approval'
          ? commandBatchMessages.awaitingApproval
          : commandBatchMessages.queued(batch.machineCount),
      );
    },
  );

  app.get(
    commandBatchPaths.batch(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['commands'],
        summary: "A batch: what was asked, by whom, and its machines' copies counted by state",
        params: commandBatchIdParamSchema,
        response: { 200: commandBatchResponseSchema },
      },
    },
    async function getCommandBatch(request) {
      return ok(await batches.get(request.params.id));
    },
  );

  app.post(
    commandBatchPaths.approve(':id'),
    {
      config: {
        access: 'admin',
        permission: 'commands.send',
        authorize: async (request) =>
          mayDisrupt(request, await batches.kindOf((request.params as { id: string }).id)),
        // Signed with the password (and code), which stands for the step-up (decision 083).
        stepUp: 'signature',
      },
      schema: {
        tags: ['commands'],
        summary:
          'Approve a batch another admin sent, signed (meaning, password, and code with two-step sign-in; a wrong one is a 400 naming signature.password or signature.code): every machine gets its copy now',
        params: commandBatchIdParamSchema,
        body: approveCommandBatchBodySchema,
        response: { 200: commandBatchResponseSchema },
      },
    },
    async function approveCommandBatch(request) {
      const batch = await batches.approve(request.params.id, signerOf(request), request.body.signature);
      return ok(batch, commandBatchMessages.queued(batch.machineCount));
    },
  );

  app.post(
    commandBatchPaths.reject(':id'),
    {
      config: { access: 'admin', permission: 'commands.send' },
      schema: {
        tags: ['commands'],
        summary: 'Reject a batch waiting for approval: no machine gets it',
        params: commandBatchIdParamSchema,
        response: { 200: commandBatchResponseSchema },
      },
    },
    async function rejectCommandBatch(request) {
      return ok(await batches.reject(request.params.id, requireAuth(request)), commandBatchMessages.rejected);
    },
  );
};
