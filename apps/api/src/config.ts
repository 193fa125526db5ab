import path from 'node:path';
import { z } from 'zod';
import { ConfigError, flag, persistedSecret } from './config-env.ts';
import { alarmsConfig, alarmsEnv, type AlarmsConfig } from './config-alarms.ts';
import { devicesConfig, devicesEnv, type DevicesConfig } from './config-devices.ts';
import { demoConfig, demoEnv, demoMinimumVersion, type DemoConfig } from './config-demo.ts';
import { housekeepingConfig, housekeepingEnv, type HousekeepingConfig } from './config-housekeeping.ts';
import { licencesConfig, licencesEnv, type LicencesConfig } from './config-licences.ts';
import { mapConfig, mapEnv, type MapConfig } from './config-map.ts';
import { retentionConfig, retentionEnv, type RetentionConfig } from './config-retention.ts';
import { storageConfig, storageEnv, type StorageConfig } from './config-storage.ts';
import { timeoutsConfig, timeoutsEnv } from './config-timeouts.ts';
import type { Timeouts } from './lib/request-timeouts.ts';
import { trustProxySetting } from './lib/trust-proxy.ts';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  PUBLIC_URL: z.url().optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Device Admin <no-reply@localhost>'),
  MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
  MAIL_SEND_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  // Without SMTP_URL: print each mail to the output, or keep it in the outbox only; named with DATABASE_URL.
  MAIL_TRANSPORT: z.enum(['print', 'outbox']).optional(),
  PAYMENT_PROVIDER: z.enum(['stripe', 'demo']).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_URL: z.url().optional(),
  SUBSCRIPTION_LINK_DAYS: z.coerce.number().positive().max(365).default(7),
  SUBSCRIPTION_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  // 0: this instance runs none of the periodic jobs; the others on the same database do (decision 075).
  RUN_JOBS: flag,
  ...demoEnv,
  // Tests only: a server clock an admin can move forward (modules/clock-control).
  CLOCK_CONTROL: flag,
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: readable lines on a terminal, JSON otherwise (lib/terminal-log.ts).
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  REQUIRE_MFA: flag,
  // A sign-in counts as a step-up for its first minutes (issue 35 item 9); off asks even then.
  SIGN_IN_STEP_UP: flag,
  // A Force update and a 100 % rollout stage wait for a second admin's approval (decision 051); on by default.
  ROLLOUT_SECOND_ADMIN: flag,
  // How long one break-glass declaration shows a patient's data (decision 082).
  BREAK_GLASS_MINUTES: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(24 * 60)
    .default(30),
  SESSION_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  // Fractions allowed (tests and e2e use a short one); at least 30 s so the one-minute warning has room.
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .min(0.5, 'must be at least 0.5')
    .max(24 * 60)
    .default(30),
  ...devicesEnv,
  // Anonymous calls per address, minute and group of public routes (lib/anonymous-rate-limit.ts).
  ANON_RATE_PER_MINUTE: z.coerce.number().int().min(1, 'must be at least 1').max(1_000_000).default(60),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = trustProxySetting(v);
      if (parsed === null)
        ctx.addIssue({
          code: 'custom',
          message:
            'must be a number of proxy hops (1, 2 ...) or a comma list of proxy addresses or CIDRs (10.0.0.0/8,127.0.0.1)',
        });
      return parsed ?? false;
    }),
  APK_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(4 * 1024 ** 3, 'must be at most 4 GiB')
    .default(200 * 1024 * 1024),
  APK_MAX_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
  APK_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(64 * 1024 ** 3, 'must be at most 64 GiB')
    .default(2 * 1024 ** 3),
  ...timeoutsEnv,
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'must be 1-64 letters, digits, or _ : . -')
    .default('device-admin:throttle:'),
  ...storageEnv,
  ...alarmsEnv,
  ...licencesEnv,
  ...housekeepingEnv,
  ...retentionEnv,
  ...mapEnv,
});

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** How long a request waits for a PostgreSQL connection before it is answered 503. */
  databaseConnectTimeoutMs: number;
  publicUrl: string;
  jwtSecret: string;
  adminEmail: string;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  /** SMTP_URL's server; or, without it, the outbox and printed to the output, or the outbox only. */
  mailTransport: 'smtp' | 'print' | 'outbox';
  mailFrom: string;
  /** How often the outbox is retried; also the first back-off step (doubling, capped at an hour). */
  mailRetrySeconds: number;
  /** Tries per message (the first send included) before it stays 'failed' for good. */
  mailMaxAttempts: number;
  /**
   * The longest one delivery may take (connection, greeting, the whole SMTP conversation) before it
   * is cut off and retried; a message being delivered is leased for twice as long (lib/mailer.ts).
   */
  mailSendTimeoutSeconds: number;
  paymentProvider: 'stripe' | 'demo';
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Another Stripe API address (stripe-mock, test stand-ins); unset → api.stripe.com. */
  stripeApiUrl: string | undefined;
  /** How long a payment link stays payable. */
  subscriptionLinkDays: number;
  /** How often unpaid links are reconciled with the provider and lapsed ones expired; 0 = never. */
  subscriptionSweepSeconds: number;
  /** A movable server clock with its route (e2e tests of time; never in a real deployment). */
  clockControl: boolean;
  /** Whether this instance takes part in running the periodic jobs (lib/job-queue.ts). */
  runJobs: boolean;
  webDist: string | undefined;
  logLevel: string;
  /** JSON lines or readable ones; unset: readable when the output is a terminal (server.ts). */
  logFormat: 'json' | 'pretty' | undefined;
  /** Absolute lifetime of a sign-in, however active. */
  sessionHours: number;
  /** Console users must use two-step sign-in: one without an authenticator enrols before getting a session. */
  requireMfa: boolean;
  /** A sign-in with the password (and code) counts as a step-up for `stepUpMinutes` (decision 070). */
  signInStepUp: boolean;
  /** A Force update and a 100 % rollout stage need a second admin's approval (decision 051). */
  rolloutSecondAdmin: boolean;
  /** A session with no authenticated request for this long is refused (HIPAA automatic logoff). */
  sessionIdleMinutes: number;
  /** How long an emergency (break-glass) declaration shows one patient's data (decision 082). */
  breakGlassMinutes: number;
  /** Device health alarms and their daily digest (modules/alarms). */
  alarms: AlarmsConfig;
  /** Machines' licences (modules/licences, decision 068). */
  licences: LicencesConfig;
  /** Removal of ended sessions, spent codes, old mail and old payment events (modules/housekeeping). */
  housekeeping: HousekeepingConfig;
  /** The retention schedule's periods (decision 086). */
  retention: RetentionConfig;
  /** The fleet map's tiles (decision 052). */
  map: MapConfig;
  /** Anonymous calls one address may make per minute to one group of public routes (429 past it). */
  anonRatePerMinute: number;
  /** Fastify's trustProxy: off, a hop count, or the proxies' addresses/CIDRs (never "all"). */
  trustProxy: false | number | string[];
  /** Largest APK an admin may upload (413 above). */
  apkMaxBytes: number;
  /** Zip-bomb limits, checked from an APK's central directory before anything is unpacked (413 above). */
  apkMaxEntries: number;
  apkMaxUncompressedBytes: number;
  /** Where uploaded files live: disk under DATA_DIR/files, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** A slow client cannot hold a socket forever (lib/request-timeouts.ts). */
  timeouts: Timeouts;
  /** Throttles and the anonymous and per-machine limits in Redis (several instances); else in memory. */
  redisUrl: string | undefined;
  /** Key prefix of those counters, so one Redis can serve several installations. */
  redisPrefix: string;
}> &
  DevicesConfig &
  DemoConfig;

export { ConfigError };

/** Parses the environment once. A bad value stops the start with one line naming every bad variable. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  /** false for the operator's commands (seed, reset-mfa), which take no payments. */
  { takesPayments = true }: { takesPayments?: boolean } = {},
): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  // A real database is an installation that may take real money: its provider is named, never
  // guessed, so a missing Stripe key cannot quietly make every payment link a demo one.
  if (takesPayments && e.DATABASE_URL && !e.PAYMENT_PROVIDER) {
    throw new ConfigError(
      'Invalid configuration: PAYMENT_PROVIDER is required when DATABASE_URL is set (stripe, or demo to take no real payments)',
    );
  }
  if (takesPayments && e.DATABASE_URL && !e.SMTP_URL && !e.MAIL_TRANSPORT) {
    throw new ConfigError(
      'Invalid configuration: SMTP_URL is required when DATABASE_URL is set (or MAIL_TRANSPORT=outbox to keep mail in the outbox only)',
    );
  }
  const paymentProvider = e.PAYMENT_PROVIDER ?? (e.STRIPE_SECRET_KEY ? 'stripe' : 'demo');
  if (paymentProvider === 'stripe' && !e.STRIPE_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER=stripe',
    );
  }
  const demo = demoConfig(e);
  return Object.freeze({
    env: e.NODE_ENV,
    storage: storageConfig(e),
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir),
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailTransport: e.SMTP_URL ? 'smtp' : (e.MAIL_TRANSPORT ?? 'print'),
    mailFrom: e.MAIL_FROM,
    mailRetrySeconds: e.MAIL_RETRY_SECONDS,
    mailMaxAttempts: e.MAIL_MAX_ATTEMPTS,
    mailSendTimeoutSeconds: e.MAIL_SEND_TIMEOUT_SECONDS,
    paymentProvider,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripeApiUrl: e.STRIPE_API_URL,
    subscriptionLinkDays: e.SUBSCRIPTION_LINK_DAYS,
    subscriptionSweepSeconds: e.SUBSCRIPTION_SWEEP_SECONDS,
    ...demo,
    clockControl: e.CLOCK_CONTROL ?? false,
    runJobs: e.RUN_JOBS ?? true,
    webDist: e.WEB_DIST,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    sessionHours: e.SESSION_HOURS,
    requireMfa: e.REQUIRE_MFA ?? false,
    signInStepUp: e.SIGN_IN_STEP_UP ?? true,
    rolloutSecondAdmin: e.ROLLOUT_SECOND_ADMIN ?? true,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    breakGlassMinutes: e.BREAK_GLASS_MINUTES,
    ...devicesConfig(e),
    alarms: {
      ...alarmsConfig(e),
      minSupportedAppVersionCode: demoMinimumVersion(demo, e.MIN_SUPPORTED_APP_VERSION_CODE),
    },
    licences: licencesConfig(e),
    housekeeping: housekeepingConfig(e),
    retention: retentionConfig(e),
    map: mapConfig(e),
    anonRatePerMinute: e.ANON_RATE_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    apkMaxBytes: e.APK_MAX_BYTES,
    apkMaxEntries: e.APK_MAX_ENTRIES,
    apkMaxUncompressedBytes: e.APK_MAX_UNCOMPRESSED_BYTES,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    timeouts: timeoutsConfig(e),
  });
}
