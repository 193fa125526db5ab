import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { apiMessages } from '@app/contract/envelope';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createAttemptLimiter } from './lib/attempt-limiter.ts';
import { createRedisThrottleStore } from './lib/redis-throttle-store.ts';
import { createMemoryThrottleStore } from './lib/throttle-store.ts';
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
import { createMailer, type Mailer } from './lib/mailer.ts';
import { createStorage } from './lib/storage/create-storage.ts';
import type { Storage } from './lib/storage/storage.ts';
import { createTokenSigner } from './lib/tokens.ts';
import { isApiPath, serveWebApp } from './lib/web-app.ts';
import { registerAppUpdates } from './modules/app-updates/app-updates-plugin.ts';
import { accountRoutes } from './modules/account/account-routes.ts';
import { registerAlarms } from './modules/alarms/alarms-plugin.ts';
import { createAccountService } from './modules/account/account-service.ts';
import { authRoutes } from './modules/auth/auth-routes.ts';
import { deviceUsersRoutes } from './modules/device-users/device-users-routes.ts';
import { createDeviceUsersService } from './modules/device-users/device-users-service.ts';
import { createRecordAccessHistory } from './modules/device-users/record-access-history.ts';
import { devicesRoutes } from './modules/devices/devices-routes.ts';
import { deviceApiPlugin } from './modules/device-api/device-api-plugin.ts';
import { createDeviceAuth, deviceAuthChannel } from './modules/device-api/device-auth.ts';
import { createDeviceGate } from './modules/device-api/device-gate.ts';
import { createDevicesService } from './modules/devices/devices-service.ts';
import { createDeviceAppVersionsService } from './modules/devices/device-app-versions.ts';
import { createAuthService } from './modules/auth/auth-service.ts';
import { createSignInThrottle } from './modules/auth/sign-in-throttle.ts';
import { createMfaCrypto } from './modules/auth/mfa-crypto.ts';
import { mfaRoutes } from './modules/auth/mfa-routes.ts';
import { createMfaService } from './modules/auth/mfa-service.ts';
import { createSessionActivity } from './modules/auth/session-activity.ts';
import { sessionRoutes } from './modules/auth/session-routes.ts';
import { createStepUpService } from './modules/auth/step-up-service.ts';
import { stepUpRoutes } from './modules/auth/step-up-routes.ts';
import { healthRoutes } from './modules/health/health-routes.ts';
import { logsRoutes } from './modules/logs/logs-routes.ts';
import { createLogsService } from './modules/logs/logs-service.ts';
import { profileRoutes } from './modules/profile/profile-routes.ts';
import { createProfileService } from './modules/profile/profile-service.ts';
import { createPaymentProvider } from './lib/payments/create-payment-provider.ts';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions-routes.ts';
import { createSubscriptionsService } from './modules/subscriptions/subscriptions-service.ts';
import { rolesRoutes } from './modules/roles/roles-routes.ts';
import { lazyRequestLogger } from './lib/lazy-request-logger.ts';
import { redactedLogPaths } from './lib/log-redaction.ts';
import { createRolesService } from './modules/roles/roles-service.ts';
import { treatmentsRoutes } from './modules/treatments/treatments-routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard-routes.ts';
import { preferencesRoutes } from './modules/preferences/preferences-routes.ts';
import { createPreferencesService } from './modules/preferences/preferences-service.ts';
import { createDashboardService } from './modules/dashboard/dashboard-service.ts';
import { createTreatmentsService } from './modules/treatments/treatments-service.ts';
import { usersRoutes } from './modules/users/users-routes.ts';
import { createUsersService } from './modules/users/users-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing mail (SMTP or the outbox); tests await `app.mailer.idle()`. */
    mailer: Mailer;
  }
}

export type AppDeps = {
  config: Config;
  database: Database;
  /** The clock services read; tests move it. */
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
  now = () => new Date(),
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
  // Before the auth hook: a flood of anonymous calls is refused before any lookup is done.
  await installAnonymousRateLimit(app, { perMinute: config.anonRatePerMinute });

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

  const signer = createTokenSigner(config.jwtSecret, now);
  // One store for every throttle: this process's memory, or Redis shared by every API instance.
  const throttleStore = config.redisUrl
    ? createRedisThrottleStore({ url: config.redisUrl, prefix: config.redisPrefix, log: app.log })
    : createMemoryThrottleStore();
  if ('ready' in throttleStore) await throttleStore.ready;
  app.addHook('onClose', () => throttleStore.close());
  const mailer = createMailer({ config, db: database.db, log: app.log, now });
  app.decorate('mailer', mailer);
  const stopMailRetry = mailer.startRetryLoop();
  app.addHook('onClose', async () => {
    stopMailRetry();
    await mailer.idle();
    mailer.close();
  });
  const profiles = createProfileService({ db: database.db, storage, now, log: app.log });
  const activity = createSessionActivity({ db: database.db, idleMinutes: config.sessionIdleMinutes, now });
  const mfa = createMfaService({
    db: database.db,
    crypto: createMfaCrypto(config.jwtSecret),
    signer,
    // Wrong codes: an attacker who has the password gets 5 guesses per 15 minutes at a 1-in-330,000 code.
    limiters: {
      byUser: createAttemptLimiter({
        name: 'mfa-user',
        max: 5,
        windowMs: 15 * 60_000,
        now: () => now().getTime(),
        store: throttleStore,
      }),
      byIp: createAttemptLimiter({
        name: 'mfa-ip',
        max: 30,
        windowMs: 15 * 60_000,
        now: () => now().getTime(),
        store: throttleStore,
      }),
    },
    requireMfa: config.requireMfa,
    now,
  });
  const auth = createAuthService({
    db: database.db,
    signer,
    mfa,
    profiles,
    signInThrottle: createSignInThrottle({ db: database.db, now, store: throttleStore }),
    sessionHours: config.sessionHours,
    activity,
    now,
    // PGlite is one process: a change's notice arrives before the change returns (decision 042).
    cacheSessions: database.kind === 'pglite',
  });
  if (database.kind === 'pglite') {
    const sessionAuthFeed = await database.listen('session_auth_changed', auth.sessionCacheFeed);
    app.addHook('onClose', () => sessionAuthFeed.close());
  }

  const deviceAuth = createDeviceAuth({ db: database.db, now, failuresPerMinute: config.anonRatePerMinute });
  const deviceAuthFeed = await database.listen(deviceAuthChannel, deviceAuth.cacheFeed);
  app.addHook('onClose', () => deviceAuthFeed.close());
  const deviceGate = createDeviceGate({ db: database.db, config, now, log: app.log });
  app.decorate('deviceGate', deviceGate);
  app.addHook('onClose', () => deviceGate.close());
  await app.register(authHook, {
    auth,
    now,
    devices: { auth: deviceAuth, onDeviceCall: deviceGate.onDeviceCall },
  });
  const stepUp = createStepUpService({ db: database.db, mfa, now });
  installStepUpGate(app, { now, needsCode: stepUp.needsCode });
  // Before any route, so every request and every failure lands in the Admin Logs (app.audit).
  installAuditHooks(app, createAuditLog({ db: database.db, now, log: app.log }));
  await app.register(healthRoutes, { ping: database.ping });
  await app.register(authRoutes, { auth });
  await app.register(mfaRoutes, { auth, mfa });
  await app.register(stepUpRoutes, { stepUp });
  await app.register(sessionRoutes, { activity, now });
  await app.register(profileRoutes, { profiles });
  const account = createAccountService({
    db: database.db,
    mailer,
    secret: config.jwtSecret,
    log: app.log,
    now,
    throttleStore,
  });
  app.decorate('account', account);
  await app.register(accountRoutes, { account });
  await registerAppUpdates(app, {
    db: database.db,
    config,
    storage,
    devices: { auth: deviceAuth, onDeviceCall: deviceGate.onDeviceCall },
  });
  await app.register(rolesRoutes, { roles: createRolesService({ db: database.db, now }) });
  await app.register(usersRoutes, { users: createUsersService({ db: database.db, now, mailer }) });
  await app.register(logsRoutes, { logs: createLogsService({ db: database.db }) });
  await app.register(devicesRoutes, {
    devices: createDevicesService({ db: database.db, now, offlineMinutes: config.deviceOfflineMinutes }),
    appVersions: createDeviceAppVersionsService({ db: database.db }),
    mapTiles: config.map.tileUrl ? { url: config.map.tileUrl, attribution: config.map.attribution } : null,
  });
  await app.register(deviceUsersRoutes, {
    deviceUsers: createDeviceUsersService({ db: database.db }),
    accessHistory: createRecordAccessHistory({ db: database.db }),
  });
  await app.register(treatmentsRoutes, { treatments: createTreatmentsService({ db: database.db }) });
  await app.register(preferencesRoutes, { preferences: createPreferencesService({ db: database.db, now }) });
  await app.register(dashboardRoutes, {
    dashboard: createDashboardService({ db: database.db, now, offlineMinutes: config.deviceOfflineMinutes }),
  });
  const subscriptions = createSubscriptionsService({
    db: database.db,
    mailer,
    provider: createPaymentProvider(config),
    publicUrl: config.publicUrl,
    linkDays: config.subscriptionLinkDays,
    now,
    log: app.log,
  });
  app.decorate('subscriptions', subscriptions);
  await app.register(subscriptionsRoutes, { subscriptions });
  await app.register(deviceApiPlugin, {
    db: database.db,
    config,
    now,
    log: app.log,
    storage,
    deviceAuth,
    gate: deviceGate,
    throttleStore,
  });
  await registerAlarms(app, { db: database.db, config, now, mailer });
  const stopSweep = subscriptions.startSweep(config.subscriptionSweepSeconds);
  app.addHook('onClose', async () => stopSweep());

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
