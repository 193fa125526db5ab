import { PassThrough } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appUpdateIdParamSchema,
  appUpdateListQuerySchema,
  appUpdateListResponseSchema,
  appUpdateMessages,
  appUpdateResponseSchema,
  latestUpdateQuerySchema,
  latestUpdateResponseSchema,
  updateTypeSchema,
} from '@app/contract/app-updates';
import { apiPaths } from '@app/contract/paths';
import { namingFields } from '#api/lib/audit-records.ts';
import { ok } from '#api/lib/envelope.ts';
import { BadRequestError, UnsupportedMediaTypeError } from '#api/lib/errors.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import { apkContentType, type AppUpdatesService, type UploadPart } from './app-updates-service.ts';

const malformed = 'The upload was incomplete or is not valid multipart/form-data';

/** The parser's own complaints (cut-off, malformed bodies) are plain Errors: they are the client's, a 400. */
const asClientError = (error: unknown) =>
  error instanceof Error && !('statusCode' in error) ? new BadRequestError(malformed) : error;

async function* uploadParts(parts: AsyncIterable<Multipart>): AsyncGenerator<UploadPart> {
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        // Our own stream in front of the parser's, so its errors arrive already classified.
        // (Not stream.pipeline: it would hand the parser's raw error to our stream.)
        const source = part.file;
        const file = new PassThrough();
        source.once('error', (error) => file.destroy(asClientError(error) as Error));
        // The parser may also just close a cut-off part, without an error and without an end.
        source.once('close', () => {
          if (!source.readableEnded && !file.destroyed) file.destroy(new BadRequestError(malformed));
        });
        // It may fail before the consumer attaches (e.g. during the duplicate check); pipeline
        // still sees the stored error then.
        file.on('error', () => undefined);
        file.once('close', () => {
          if (!source.readableEnded) source.destroy();
        });
        // The parser runs ahead of us: the part may have failed before we got to it.
        if (source.destroyed)
          file.destroy(
            source.errored ? (asClientError(source.errored) as Error) : new BadRequestError(malformed),
          );
        else source.pipe(file);
        yield { type: 'file', fieldname: part.fieldname, filename: part.filename, file };
      } else {
        yield { type: 'field', fieldname: part.fieldname, value: part.value };
      }
    }
  } catch (error) {
    throw asClientError(error);
  }
}

/**
 * A Force update makes every machine install it: publishing one needs a fresh step-up (decision
 * 046). The fields arrive in the stream, so the check runs when updateType 2 passes by, before the
 * release is saved (and, when the form sends its fields first as the console does, before the file).
 */
async function* forceNeedsStepUp(
  parts: AsyncIterable<UploadPart>,
  requireStepUp: () => Promise<void>,
): AsyncGenerator<UploadPart> {
  for await (const part of parts) {
    if (
      part.type === 'field' &&
      part.fieldname === 'updateType' &&
      updateTypeSchema.safeParse(part.value).data === 2
    )
      await requireStepUp();
    yield part;
  }
}

export const appUpdatesRoutes: FastifyPluginAsyncZod<{ appUpdates: AppUpdatesService }> = async (
  app,
  { appUpdates },
) => {
  app.post(
    apiPaths.systemUpdates,
    {
      config: { access: 'admin', permission: 'app-updates.publish', stepUp: 'in-handler' },
      schema: {
        tags: ['app-updates'],
        summary:
          'Add an app update: multipart/form-data with appName, versionCode, versionName, remark, updateDesc, updateType (1 Flexible, 2 Force) and the file apk. ' +
          'A Force update needs a step-up (403 with data.stepUpRequired without one). ' +
          'The APK streams to storage; 415 unless it is a ZIP listing AndroidManifest.xml with a consistent directory and safe entry names, 413 over APK_MAX_BYTES or over the declared zip limits (APK_MAX_ENTRIES, APK_MAX_UNCOMPRESSED_BYTES), 409 for a versionCode the app already has.',
        consumes: ['multipart/form-data'],
        response: { 201: appUpdateResponseSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new UnsupportedMediaTypeError('Send the app update as multipart/form-data');
      const parts = request.parts({
        // One file, the APK; the global multipart limits stay for everything else. Our own meter
        // stops at apkMaxBytes with a clear 413; the parser's limit is one byte above as a backstop.
        limits: { fileSize: appUpdates.apkMaxBytes + 1, files: 1, fields: 20 },
      });
      const created = await appUpdates.create(
        forceNeedsStepUp(namingFields(request, uploadParts(parts)), () => app.requireStepUp(request)),
        requireAuth(request).userId,
      );
      return reply.code(201).send(ok(created, appUpdateMessages.added, 201));
    },
  );

  app.get(
    apiPaths.systemUpdatesAll,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['app-updates'],
        summary: 'App updates, newest first: page, limit → allSystems, totalPages',
        querystring: appUpdateListQuerySchema,
        response: { 200: appUpdateListResponseSchema },
      },
    },
    async (request) => ok(await appUpdates.list(request.query)),
  );

  app.get(
    apiPaths.appUpdateLatest,
    {
      config: { access: 'public' },
      schema: {
        tags: ['app-updates'],
        summary:
          'For the mobile app, no token: the newest update of appName. With versionCode (the installed one), also whether an update is available and whether it must be forced.',
        security: [],
        querystring: latestUpdateQuerySchema,
        response: { 200: latestUpdateResponseSchema },
      },
    },
    async (request) => ok(await appUpdates.latest(request.query)),
  );

  app.get(
    apiPaths.appUpdateApk(':id'),
    {
      config: { access: 'public' },
      schema: {
        tags: ['app-updates'],
        summary:
          'Download an APK. Public by unguessable id (see docs/decisions): the mobile app has no admin token.',
        security: [],
        params: appUpdateIdParamSchema,
      },
    },
    async (request, reply) => {
      const { update, object } = await appUpdates.openApk(request.params.id);
      return reply
        .header('content-type', apkContentType)
        .header('content-length', String(object.size))
        .header('content-disposition', `attachment; filename="${update.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('etag', `"${update.apkSha256}"`)
        .header('cache-control', 'public, max-age=3600')
        .send(object.stream);
    },
  );
};
