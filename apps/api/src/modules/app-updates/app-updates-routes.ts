import { PassThrough } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appUpdateIdParamSchema,
  appUpdateExportQuerySchema,
  appUpdateListQuerySchema,
  appUpdateListResponseSchema,
  appUpdateMessages,
  appUpdateResponseSchema,
  latestUpdateQuerySchema,
  latestUpdateResponseSchema,
} from '@app/contract/app-updates';
import {
  rolloutChangeBodySchema,
  rolloutMessages,
  type RolloutChangeBody,
} from '@app/contract/app-update-rollouts';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import type { FastifyRequest } from 'fastify';
import { namingFields } from '#api/lib/audit-records.ts';
import { csvExportRoute } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { BadRequestError, UnauthorizedError, UnsupportedMediaTypeError } from '#api/lib/errors.ts';
import type { DeviceGate } from '#api/lib/auth-hook.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import { apkContentType, type AppUpdatesService, type UploadPart } from './app-updates-service.ts';
import type { AppUpdatesExport } from './app-updates-export.ts';
import type { RolloutService } from './rollout-service.ts';
import { signerOf, type SignatureService } from '../signatures/signature-service.ts';
import { limiterAddress } from '#api/lib/anonymous-rate-limit.ts';

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
 * The update check is public, so a machine that is not enrolled can still ask; an enrolled one
 * presents its credential (the device API's `Device` scheme) to be answered by its cohort
 * (decision 051). A credential that is presented must be good: a 401 rather than a silent
 * anonymous answer, which would hide a staged release from the machine.
 */
async function enrolledDevice(request: FastifyRequest, devices: DeviceGate): Promise<string | null> {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const credential = /^Device (\S+)$/.exec(header)?.[1];
  if (!credential) throw new UnauthorizedError(deviceApiMessages.credentialInvalid);
  // Counted per address like every device call's credential (decision 066).
  const device = await devices.auth.authenticateDevice(credential, limiterAddress(request));
  await devices.onDeviceCall?.(device);
  return device.deviceId;
}

export const appUpdatesRoutes: FastifyPluginAsyncZod<{
  appUpdates: AppUpdatesService;
  exportCsv: AppUpdatesExport;
  rollouts: RolloutService;
  devices: DeviceGate;
  /** Each release's signed approvals, shown in the list (decision 083). */
  signatures: Pick<SignatureService, 'listFor'>;
}> = async (app, { appUpdates, exportCsv, rollouts, devices, signatures }) => {
  app.post(
    apiPaths.systemUpdates,
    {
      config: { access: 'admin', permission: 'app-updates.publish', stepUp: 'in-handler' },
      schema: {
        tags: ['app-updates'],
        summary:
          'Add an app update: multipart/form-data with appName, versionCode, versionName, remark, updateDesc, updateType (1 Flexible, 2 Force) and the file apk. ' +
          'A Force update, and a release for every machine (rolloutPercent 100 or left out), need a step-up (403 with data.stepUpRequired without one). ' +
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
      const created = await appUpdates.create(namingFields(request, uploadParts(parts)), {
        actor: historyActorOf(request),
        requireStepUp: () => app.requireStepUp(request),
      });
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
    async (request) => {
      const page = await appUpdates.list(request.query);
      const ids = page.allSystems.map((r) => r._id);
      const signed = await signatures.listFor('app-update-rollout', ids);
      return ok({
        ...page,
        allSystems: page.allSystems.map((r) => ({ ...r, signatures: signed.get(r._id)! })),
      });
    },
  );

  csvExportRoute(app, {
    path: apiPaths.systemUpdatesExport,
    permission: 'devices.view',
    tag: 'app-updates',
    summary: "App updates as a CSV file: every release, newest first, with the list's columns, streamed",
    query: appUpdateExportQuerySchema,
    list: 'app-updates',
    csv: exportCsv,
  });

  app.get(
    apiPaths.appUpdateLatest,
    {
      config: { access: 'public' },
      schema: {
        tags: ['app-updates'],
        summary:
          'For the mobile app, no token needed: the newest update of appName it may get. With versionCode (the installed one), also whether an update is available and whether it must be forced (a skipped Force release, or a version below the minimum supported). ' +
          'An enrolled machine sends its credential (authorization: Device dvc_…) and is answered by its rollout cohort; without one only releases rolled out to 100 % are offered. A machine on a withdrawn release is offered the previous good one (rollback true).',
        security: [],
        querystring: latestUpdateQuerySchema,
        response: { 200: latestUpdateResponseSchema },
      },
    },
    async (request) =>
      ok(
        await appUpdates.latest({
          ...request.query,
          deviceId: await enrolledDevice(request, devices),
        }),
      ),
  );

  app.post(
    apiPaths.appUpdateRollout(':id'),
    {
      config: {
        access: 'admin',
        permission: 'app-updates.publish',
        // Withdrawing sends machines back a version, and a 100 % stage reaches every machine. What
        // would be refused anyway (above all the asker approving) is refused before the password is
        // asked for; the change checks it again under its lock.
        // An approval is signed with the password (and code), which stands for its step-up (decision 083).
        stepUp: async (request) => {
          const body = request.body as RolloutChangeBody;
          const dangerous = body.action === 'withdraw' || body.action === 'approve' || body.percent === 100;
          if (dangerous)
            await rollouts.check((request.params as { id: string }).id, body, requireAuth(request).userId);
          return dangerous && body.action !== 'approve';
        },
      },
      schema: {
        tags: ['app-updates'],
        summary:
          "Change a release's staged rollout: action pause, resume, advance (with percent above the current stage, 1–100), halt (no new machine gets it) or withdraw (its machines are offered the previous good release). " +
          'Withdraw and a 100 % stage need a step-up; approve is signed instead (signature: meaning, password, and code with two-step sign-in; a wrong one is a 400 naming signature.password or signature.code). With ROLLOUT_SECOND_ADMIN on (the default) a 100 % stage, and a new Force or 100 % release, wait for approve by another admin (403 for the admin who asked, before any step-up is asked for). ' +
          "409 when the rollout's state does not allow the action.",
        params: appUpdateIdParamSchema,
        body: rolloutChangeBodySchema,
        response: { 200: appUpdateResponseSchema },
      },
    },
    async (request) => {
      const signer = request.body.action === 'approve' ? signerOf(request) : undefined;
      const row = await rollouts.change(request.params.id, request.body, historyActorOf(request), signer);
      const asked = request.body.action === 'advance' && row.approvalPending === 'full-stage';
      return ok(
        appUpdates.toDto(row),
        asked ? rolloutMessages.awaitingApproval : rolloutMessages.changed[request.body.action],
      );
    },
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
