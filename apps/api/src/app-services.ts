import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { createAttemptLimiter } from './lib/attempt-limiter.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import type { MovableClock } from './lib/movable-clock.ts';
import type { Job } from './lib/jobs.ts';
import type { RedisLink } from './lib/redis-link.ts';
import { createRedisThrottleStore } from './lib/redis-throttle-store.ts';
import type { Storage } from './lib/storage/storage.ts';
import { createMemoryThrottleStore, type ThrottleStore } from './lib/throttle-store.ts';
import { createTokenSigner, type TokenSigner } from './lib/tokens.ts';
import { createAuthService, type AuthService } from './modules/auth/auth-service.ts';
import { createMfaCrypto } from './modules/auth/mfa-crypto.ts';
import { createMfaService, type MfaService } from './modules/auth/mfa-service.ts';
import { createSessionActivity, type SessionActivity } from './modules/auth/session-activity.ts';
import { createSignInThrottle } from './modules/auth/sign-in-throttle.ts';
import { createStepUpService, type StepUpService } from './modules/auth/step-up-service.ts';
import { createDeviceAuth, deviceAuthChannel, type DeviceAuth } from './modules/device-api/device-auth.ts';
import { createDeviceGate, type DeviceGateService } from './modules/device-api/device-gate.ts';
import { createSettingsVersions, type SettingsVersions } from './modules/device-api/settings-versions.ts';
import { settingsChangedChannel } from './modules/machine-settings/settings-writes.ts';
import {
  createLicenceVersions,
  licenceChangedChannel,
  type LicenceVersions,
} from './modules/device-api/licence-versions.ts';
import { createLicences, type Licences } from './modules/licences/licences-service.ts';
import {
  commandQueuedChannel,
  createCommandInbox,
  type CommandInbox,
} from './modules/commands/command-inbox.ts';
import { createProfileService, type ProfileService } from './modules/profile/profile-service.ts';
import { mayChangeSessions } from './modules/auth/session-changes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing mail (SMTP or the outbox); tests await `app.mailer.idle()`. */
    mailer: Mailer;
    /** Which machines have commands waiting; tests read how many machines are in a long-poll. */
    commandInbox: CommandInbox;
    /** Machines' licences; tests run the sweeps with the clock where they want it. */
    licences: Licences;
    /** Runs every module's periodic job once, now (lib/jobs.ts runJobsOnce). */
    runJobsNow: () => Promise<void>;
    /** Every periodic job the modules declared (the Jobs screen lists them; lib/job-queue.ts runs them). */
    declaredJobs: readonly Job[];
  }
}

/**
 * What every module receives (`AppModule.register`): the services more than one module uses, built
 * once per app. Console sessions and machines' credentials are here because the auth hook, which
 * runs before every module's routes, reads them.
 */
export type AppServices = {
  config: Config;
  database: Database;
  db: Db;
  /** The clock services read; tests move it. */
  now: () => Date;
  /** The movable clock behind `now` with CLOCK_CONTROL=1 (e2e tests), else null. */
  clock: MovableClock | null;
  log: FastifyBaseLogger;
  storage: Storage;
  mailer: Mailer;
  /** The Redis connection shared counters use (REDIS_URL), or null: every counter is in memory. */
  redis: RedisLink | null;
  /** One store for every throttle: this process's memory, or Redis shared by every API instance. */
  throttleStore: ThrottleStore;
  signer: TokenSigner;
  profiles: ProfileService;
  activity: SessionActivity;
  mfa: MfaService;
  auth: AuthService;
  stepUp: StepUpService;
  deviceAuth: DeviceAuth;
  deviceGate: DeviceGateService;
  /**
   * Each machine's licence (its version and row) from memory, fed by the database's notices: the
   * heartbeat answers the version, the signed licence is made from the row (decision 068).
   */
  licenceVersions: LicenceVersions;
  /** Which machines have commands waiting, from memory, and the machines in a long-poll (decision 076). */
  commandInbox: CommandInbox;
  /** Each machine's settings version and heartbeat interval, from memory (decision 079). */
  settingsVersions: SettingsVersions;
  /** Machines' licences: the subscriptions module derives them again on every payment (decision 068). */
  licences: Licences;
};

/** Builds the shared services, and closes each with the app. */
export async function createAppServices(
  app: FastifyInstance,
  {
    config,
    database,
    now,
    storage,
    clock,
    redis,
  }: Pick<AppServices, 'config' | 'database' | 'now' | 'storage' | 'clock' | 'redis'>,
): Promise<AppServices> {
  const { db } = database;
  const log = app.log;
  const signer = createTokenSigner(config.jwtSecret, now);
  const throttleStore = redis
    ? createRedisThrottleStore({ link: redis, prefix: config.redisPrefix })
    : createMemoryThrottleStore();
  app.addHook('onClose', () => throttleStore.close());

  const mailer = createMailer({ config, db, log, now });
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => {
    await mailer.idle();
    mailer.close();
  });

  const profiles = createProfileService({ db, storage, now, log });
  const activity = createSessionActivity({ db, idleMinutes: config.sessionIdleMinutes, now });
  const limiter = (name: string, max: number) =>
    createAttemptLimiter({
      name,
      max,
      windowMs: 15 * 60_000,
      now: () => now().getTime(),
      store: throttleStore,
    });
  const mfa = createMfaService({
    db,
    crypto: createMfaCrypto(config.jwtSecret),
    signer,
    // Wrong codes: an attacker who has the password gets 5 guesses per 15 minutes at a 1-in-330,000 code.
    limiters: { byUser: limiter('mfa-user', 5), byIp: limiter('mfa-ip', 30) },
    requireMfa: config.requireMfa,
    now,
  });
  const auth = createAuthService({
    db,
    signer,
    mfa,
    profiles,
    signInThrottle: createSignInThrottle({ db, now, store: throttleStore }),
    sessionHours: config.sessionHours,
    signInStepUp: config.signInStepUp,
    activity,
    now,
  });
  // Sessions are held in memory until the database announces a change (decisions 042 and 074).
  const sessionAuthFeed = await database.listen('session_auth_changed', auth.sessionCacheFeed);
  app.addHook('onClose', () => sessionAuthFeed.close());
  // Callback style, as every per-request hook: no promise or microtask on each request (decision 040).
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (mayChangeSessions(request)) auth.forgetSessions();
    done(null, payload);
  });

  const deviceAuth = createDeviceAuth({
    db,
    now,
    failuresPerMinute: config.anonRatePerMinute,
    redis,
    redisPrefix: config.redisPrefix,
  });
  const deviceAuthFeed = await database.listen(deviceAuthChannel, deviceAuth.cacheFeed);
  app.addHook('onClose', () => deviceAuthFeed.close());
  const licenceVersions = createLicenceVersions({ db });
  const licenceFeed = await database.listen(licenceChangedChannel, licenceVersions.feed);
  app.addHook('onClose', () => licenceFeed.close());
  const commandInbox = createCommandInbox({ db, now, log });
  const commandFeed = await database.listen(commandQueuedChannel, commandInbox.feed);
  app.addHook('onClose', async () => {
    await commandFeed.close();
    await commandInbox.close();
  });
  app.decorate('commandInbox', commandInbox);
  const settingsVersions = createSettingsVersions({
    db,
    defaultHeartbeatSeconds: config.deviceHeartbeatSeconds,
  });
  const settingsFeed = await database.listen(settingsChangedChannel, settingsVersions.feed);
  app.addHook('onClose', () => settingsFeed.close());

  const deviceGate = createDeviceGate({ db, config, now, log, redis });
  app.decorate('deviceGate', deviceGate);
  app.addHook('onClose', () => deviceGate.close());

  const stepUp = createStepUpService({ db, mfa, now });
  const licences = createLicences({ db, now, config: config.licences });
  app.decorate('licences', licences);
  return {
    licences,
    config,
    database,
    db,
    now,
    clock,
    log,
    storage,
    mailer,
    redis,
    throttleStore,
    signer,
    profiles,
    activity,
    mfa,
    auth,
    stepUp,
    deviceAuth,
    deviceGate,
    licenceVersions,
    commandInbox,
    settingsVersions,
  };
}
