import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { apiMessages } from '@app/contract/envelope';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { installSecurityHeaders } from './lib/security-headers.ts';
import { trustProxyOption } from './lib/trust-proxy.ts';
import { fastifyTimeoutOptions, installRequestTimeouts } from './lib/request-timeouts.ts';
import { requestLogSerializer } from './lib/log-url.ts';
import { loggableError } from './lib/loggable-error.ts';
import { createAuditLog } from './lib/audit.ts';
import { installAuditHooks } from './lib/audit-hooks.ts';
import { authHook } from './lib/auth-hook.ts';
import { registerApiDocs } from './lib/api-docs.ts';
import { installRouteRegistry } from './lib/route-registry.ts';
import { installStepUpGate } from './lib/step-up.ts';
import { installErrorHandler } from './lib/error-handler.ts';
import { frameworkErrors } from './lib/framework-errors.ts';
import { installNulGuard } from './lib/nul-guard.ts';
import { installAnonymousRateLimit } from './lib/anonymous-rate-limit.ts';
import { createRedisLink } from './lib/redis-link.ts';
import { createStorage } from './lib/storage/create-storage.ts';
import type { Storage } from './lib/storage/storage.ts';
import { isApiPath, serveWebApp } from './lib/web-app.ts';
import { lazyRequestLogger } from './lib/lazy-request-logger.ts';
import { redactedLogPaths } from './lib/log-redaction.ts';
import { startJobQueue } from './lib/job-queue.ts';
import { runJobsOnce } from './lib/jobs.ts';
import { createMovableClock } from './lib/movable-clock.ts';
import { createAppServices } from './app-services.ts';
import { appModules } from './modules/module-list.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  /** The clock services read; tests move it. With CLOCK_CONTROL=1 a movable clock runs ahead of it. */
  now?: () => Date;
  logger?: boolean;
  /** Where the server log goes instead of stdout (tests write it to a file and grep it for secrets). */
  logStream?: { write: (line: string) => void };
  /** File storage (disk under DATA_DIR/files by default); modules that keep files receive it from here. */
  storage?: Storage;
};

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function buildApp({
  config,
  database,
  now: baseNow = () => new Date(),
  logger = true,
  logStream,
  storage = createStorage(config),
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger && {
      level: config.logLevel,
      // Fastify logs no bodies; these catch a secret that a handler or a library logs as a field.
      redact: { paths: redactedLogPaths, censor: '[redacted]' },
      // Errors without bound values (loggable-error.ts); URLs with only allowed query values.
      serializers: { req: requestLogSerializer, err: loggableError as (err: unknown) => never },
      ...(logStream ? { stream: logStream } : {}),
    },
    ...(logger ? { childLoggerFactory: lazyRequestLogger } : {}),
    bodyLimit: 256 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    ...fastifyTimeoutOptions(config.timeouts),
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installNulGuard(app);
  installRequestTimeouts(app, config.timeouts);
  // Only JSON (and multipart where a route registers it) is accepted: a text body gets a 415.
  app.removeContentTypeParser('text/plain');

  installRouteRegistry(app);

  await installSecurityHeaders(app, { mapImageSources: config.map.imageSources });
  // With REDIS_URL, one connection for every counter several instances share (decisions 021, 073).
  const redis = config.redisUrl ? createRedisLink({ url: config.redisUrl, log: app.log }) : null;
  if (redis) {
    await redis.ready;
    app.addHook('onClose', () => redis.close());
  }
  // Before the auth hook: a flood of anonymous calls is refused before any lookup is done.
  await installAnonymousRateLimit(app, {
    perMinute: config.anonRatePerMinute,
    redis,
    prefix: config.redisPrefix,
  });

  await registerApiDocs(app);
  // Multipart is registered ONCE, here, with tight global limits. A route that takes a bigger file
  // overrides per call: `request.file({ limits: { fileSize } })` / `request.parts({ limits })`.
  // Files stream (never buffered whole): hand `part.file` to `storage.put(key, part.file, { maxBytes })`.
  await app.register(multipart, {
    limits: {
      fieldNameSize: 100,
      fieldSize: 64 * 1024,
      fields: 30,
      fileSize: 5 * 1024 * 1024,
      files: 1,
      parts: 40,
      headerPairs: 100,
    },
  });

  // CLOCK_CONTROL=1 (e2e tests only): a clock the clock-control module moves forward.
  const clock = config.clockControl ? createMovableClock(() => baseNow().getTime()) : null;
  const now = clock?.now ?? baseNow;
  const services = await createAppServices(app, { config, database, now, storage, clock, redis });
  const { auth, deviceAuth, deviceGate, stepUp } = services;
  await app.register(authHook, {
    auth,
    now,
    devices: { auth: deviceAuth, onDeviceCall: deviceGate.onDeviceCall },
  });
  installStepUpGate(app, { now, needsCode: stepUp.needsCode });
  // Before any route, so every request and every failure lands in the Admin Logs (app.audit).
  installAuditHooks(app, createAuditLog({ db: database.db, now, log: app.log }));

  // Every module of modules/module-list.ts, in its order; then their jobs, stopped with the app.
  for (const module of appModules) await module.register(app, services);
  const jobs = [services.mailer.retryJob, ...appModules.flatMap((m) => m.jobs?.(app, services) ?? [])];
  app.decorate('declaredJobs', jobs);
  app.decorate('runJobsNow', () => runJobsOnce(jobs, app.log));
  if (config.runJobs) {
    // On the job queue in the database (decision 075), once the app is ready; preClose runs before
    // any onClose hook, so no job is left running against a closed service.
    let stopJobs = async () => {};
    app.addHook('onReady', async () => {
      stopJobs = await startJobQueue({ executeSql: database.executeSql, jobs, log: app.log });
    });
    app.addHook('preClose', () => stopJobs());
  }

  const webDist = path.resolve(config.webDist ?? defaultWebDist);
  const hasWeb = await serveWebApp(app, webDist);
  app.setNotFoundHandler((request, reply) => {
    if (hasWeb && request.method === 'GET' && !isApiPath(request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    return reply.code(404).send({
      code: 404,
      msg: `${apiMessages.routeNotFound}: ${request.method} ${request.url.split('?')[0]}`,
      data: null,
    });
  });
  return app;
}
