import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  appCommandsQuerySchema,
  appCommandsResponseSchema,
  commandIdParamSchema,
  commandMessages,
  commandPaths,
  commandResultBodySchema,
  commandResultResponseSchema,
  maxDiagnosticsBytes,
} from '@app/contract/commands';
import { envelope } from '@app/contract/envelope';
import { z } from 'zod';
import { ok } from '#api/lib/envelope.ts';
import { requireDevice } from '#api/lib/request-context.ts';
import { fileTooLarge } from '#api/lib/storage/disk-storage.ts';
import type { CommandInbox } from './command-inbox.ts';
import type { CommandsService } from './commands-service.ts';

/** What a diagnostics file may come as: the app's logs as text, JSON, or compressed. */
const diagnosticsTypes = ['application/octet-stream', 'application/gzip', 'application/zip', 'text/plain'];

/*
 * The machine's side of commands (docs/device-api.md): the long-poll, the result and the diagnostics
 * upload. The heartbeat's answer carries pending commands too (device-api/check-in-routes.ts). A
 * machine only ever sees and reports its own: another machine's command is not found.
 */
export const appCommandsRoutes: FastifyPluginAsyncZod<{
  commands: CommandsService;
  inbox: CommandInbox;
  /** DEVICE_LONG_POLL_SECONDS: the longest a long-poll is held, whatever `wait` asked. */
  longPollSeconds: number;
}> = async (app, { commands, inbox, longPollSeconds }) => {
  app.get(
    commandPaths.appCommands,
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: "The machine's pending commands, waiting up to `wait` seconds for one",
        description:
          'Answers at once when commands are pending, else when one is queued for this machine, else ' +
          "after `wait` seconds (at most 50, or the server's shorter limit) with none. A command is handed again until its result is " +
          'reported: run each once, by its `_id`.',
        querystring: appCommandsQuerySchema,
        response: { 200: appCommandsResponseSchema },
        security: [{ device: [] }],
      },
    },
    async (request) => {
      const { deviceId } = requireDevice(request);
      const hungUp = new AbortController();
      request.raw.once('close', () => hungUp.abort());
      const list = await inbox.waitFor(
        deviceId,
        Math.min(request.query.wait, longPollSeconds),
        hungUp.signal,
      );
      return ok({ commands: list });
    },
  );

  app.post(
    commandPaths.appResult(':id'),
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: 'Report a command’s result: `{ ok, message }` (a repeated report changes nothing)',
        params: commandIdParamSchema,
        body: commandResultBodySchema,
        response: { 200: commandResultResponseSchema },
        security: [{ device: [] }],
      },
    },
    async (request) => {
      const { deviceId } = requireDevice(request);
      const state = await commands.result(deviceId, request.params.id, request.body);
      return ok({ state }, commandMessages.resultRecorded);
    },
  );

  // The file comes as the request body itself, streamed to storage (never held in memory).
  await app.register(async (plugin) => {
    const upload = plugin.withTypeProvider<ZodTypeProvider>();
    for (const type of diagnosticsTypes)
      upload.addContentTypeParser(type, { bodyLimit: maxDiagnosticsBytes + 1 }, (_request, payload, done) =>
        done(null, payload),
      );
    upload.put(
      commandPaths.appDiagnostics(':id'),
      {
        config: { access: 'device' },
        bodyLimit: maxDiagnosticsBytes + 1,
        schema: {
          tags: ['device'],
          summary: 'Upload the diagnostics file an upload-diagnostics command asked for (at most 10 MB)',
          description: `The body is the file (${diagnosticsTypes.join(', ')}). Then report the result.`,
          params: commandIdParamSchema,
          response: { 200: envelope(z.object({ size: z.number().int() })) },
          security: [{ device: [] }],
        },
      },
      async (request) => {
        const { deviceId } = requireDevice(request);
        // A declared size past the limit is refused before a byte is read: a machine on a metered
        // link does not send 10 MB to hear no. A chunked body is counted as it streams (storage).
        if (Number(request.headers['content-length']) > maxDiagnosticsBytes)
          throw fileTooLarge(maxDiagnosticsBytes);
        const type = String(request.headers['content-type'] ?? 'application/octet-stream');
        const stored = await commands.storeDiagnostics(
          deviceId,
          request.params.id,
          request.body as Readable,
          type.split(';')[0]!.trim(),
        );
        return ok(stored, commandMessages.diagnosticsStored);
      },
    );
  });
};
