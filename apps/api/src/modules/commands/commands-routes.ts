import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  commandIdParamSchema,
  commandIsDisruptive,
  commandListQuerySchema,
  commandListResponseSchema,
  commandMessages,
  commandPaths,
  commandResponseSchema,
  sendCommandBodySchema,
  type SendCommandBody,
} from '@app/contract/commands';
import { deviceIdParamSchema } from '@app/contract/devices';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { CommandsService } from './commands-service.ts';
import { mayDisrupt } from './may-disrupt.ts';

/** The file's extension from the type the machine sent it as. */
const extensionOf = (type = '') =>
  ({ 'application/gzip': 'gz', 'application/zip': 'zip', 'text/plain': 'txt', 'application/json': 'json' })[
    type.split(';')[0]!.trim()
  ] ?? 'bin';

const kindOf = (request: FastifyRequest) => (request.body as SendCommandBody).kind;

/*
 * The console's side of commands (decision 077). Sending one needs commands.send; a disruptive kind
 * (restart, safety hold, re-enrol) needs commands.disruptive as well, and a fresh step-up. Every
 * step is in the audit trail as an action on the machine.
 */
export const commandsRoutes: FastifyPluginAsyncZod<{ commands: CommandsService }> = async (
  app,
  { commands },
) => {
  const auditDevice = (request: { auditRecord?: unknown }, deviceId: string) => {
    request.auditRecord = { kind: 'device', id: deviceId };
  };

  app.post(
    commandPaths.deviceCommands(':id'),
    {
      config: {
        access: 'admin',
        permission: 'commands.send',
        authorize: async (request) => mayDisrupt(request, kindOf(request)),
        stepUp: (request) => commandIsDisruptive(kindOf(request)),
      },
      schema: {
        tags: ['commands'],
        summary: 'Send a machine a command (a disruptive one needs commands.disruptive and a step-up)',
        description:
          'Kinds: sync-now, upload-diagnostics ({ minutes }), restart-app, safety-hold ({ reason }), ' +
          'release-hold, re-enrol. The machine receives it with its next heartbeat or long-poll; ' +
          '`data._id` is the command, read back with GET /api/v1/admin/commands/{id}.',
        params: deviceIdParamSchema,
        body: sendCommandBodySchema,
        response: { 201: commandResponseSchema },
      },
    },
    async function sendCommand(request, reply) {
      auditDevice(request, request.params.id);
      const command = await commands.send(request.params.id, request.body, requireAuth(request));
      reply.code(201);
      return ok(command, commandMessages.queued);
    },
  );

  app.get(
    commandPaths.deviceCommands(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['commands'],
        summary: "A machine's commands, newest first, each with its state",
        params: deviceIdParamSchema,
        querystring: commandListQuerySchema,
        response: { 200: commandListResponseSchema },
      },
    },
    async function listCommands(request) {
      const { page, limit } = request.query;
      return ok(await commands.list(request.params.id, page, limit));
    },
  );

  app.get(
    commandPaths.command(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['commands'],
        summary: 'One command: its machine, state, times and the app’s message',
        params: commandIdParamSchema,
        response: { 200: commandResponseSchema },
      },
    },
    async function getCommand(request) {
      return ok(await commands.get(request.params.id));
    },
  );

  app.post(
    commandPaths.cancel(':id'),
    {
      config: { access: 'admin', permission: 'commands.send' },
      schema: {
        tags: ['commands'],
        summary: 'Cancel a command that has not reached its machine yet (409 once delivered)',
        params: commandIdParamSchema,
        response: { 200: commandResponseSchema },
      },
    },
    async function cancelCommand(request) {
      const command = await commands.get(request.params.id);
      // Named before the cancel, so a refused one names the machine too.
      auditDevice(request, command.deviceId);
      return ok(await commands.cancel(command, requireAuth(request)), commandMessages.cancelled);
    },
  );

  app.get(
    commandPaths.diagnostics(':id'),
    {
      config: { access: 'admin', permission: 'commands.send' },
      schema: {
        tags: ['commands'],
        summary: 'Download the diagnostics file a machine uploaded for an upload-diagnostics command',
        params: commandIdParamSchema,
      },
    },
    async function downloadDiagnostics(request, reply) {
      const { command, object, contentType } = await commands.openDiagnostics(request.params.id);
      auditDevice(request, command.deviceId);
      const stamp = command.diagnostics!.uploadedAt.slice(0, 19).replaceAll(':', '-');
      return reply
        .header('content-type', contentType)
        .header('content-length', String(object.size))
        .header(
          'content-disposition',
          `attachment; filename="diagnostics-${command.machineNumber.replace(/[^\w.-]/g, '_')}-${stamp}.${extensionOf(contentType)}"`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(object.stream);
    },
  );
};
