import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { stepUpMinutes } from '@app/contract/step-up';
import { buildApp } from '../app.ts';
import { bootstrap } from '../bootstrap.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { recordHistory } from '../db/schema/record-history.ts';
import { sessions } from '../db/schema/users.ts';
import { owaspMinimum, setPasswordHashCost, testOnlyCost } from '../lib/passwords.ts';
import { pooledPglite } from './pglite-pool.ts';
import { recordPatients, recordSecrets } from './secret-scan.ts';

export const testAdmin = { email: 'admin@example.com', password: 'Admin-Passw0rd!' } as const;

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; when DATABASE_URL is
 * set, a new database on that PostgreSQL server, dropped again at the end.
 */
/** A database of its own on the DATABASE_URL server (`serverUrl`), and how to drop it. */
export async function scratchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = await import('pg');
  const run = async (text: string) => {
    const c = new Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  const name = `t_${randomBytes(6).toString('hex')}`;
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

export async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // A worker's used PGlite emptied back to its just-migrated state: creating one costs 1.5 s of CPU.
    const { database, release } = await pooledPglite();
    return { database, drop: release };
  }
  const scratch = await scratchDatabase(serverUrl);
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
  return {
    database,
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  clock: { now: Date; advance: (ms: number) => void };
  /** Signs in through the real login route and returns the bearer token. */
  login: (email?: string, password?: string) => Promise<string>;
  /**
   * Signs in, then ends the sign-in's own step-up on that session (`lapseStepUp`): a session that
   * has not confirmed its password lately, as an admin's is after a few minutes' work.
   */
  loginWithoutStepUp: (email?: string, password?: string) => Promise<string>;
  /**
   * Dates this session's last step-up (a sign-in counts as one, decision 046) exactly
   * `stepUpMinutes` back, so its next dangerous action asks again. The clock does not move: every
   * other session keeps its own step-up. Returns the token for chaining.
   */
  lapseStepUp: (token: string) => Promise<string>;
  /** inject() with the token as a bearer header. */
  injectAs: (token: string, options: InjectOptions) => Promise<LightMyRequestResponse>;
  /**
   * Confirms the password (and code) on this session, as the console does before a dangerous action
   * (decision 046); by default the first admin's password. Returns the token for chaining.
   */
  stepUp: (token: string, password?: string, code?: string) => Promise<string>;
  close: () => Promise<void>;
};

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'api-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: testAdmin.email,
    ADMIN_PASSWORD: testAdmin.password,
    LOG_LEVEL: 'info',
    DEMO_DATA: '0',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Suites sign in far more often than a person would; the anonymous limit has its own test
    // (lib/anonymous-rate-limit.test.ts), which sets it low.
    ANON_RATE_PER_MINUTE: '100000',
    // No alarm timer: it would run every rule against each new app's database while the test's own
    // requests do. The alarm tests run the checks themselves (app.alarmJobs); alarm-rules.test.ts
    // ("the timer") turns it back on.
    ALARM_CHECK_SECONDS: '0',
    // Nor the licence sweeps: the licence tests run them, with the clock where they want it.
    LICENCE_SWEEP_SECONDS: '0',
    // Nor any job on the queue (decision 075): starting it makes the queue's tables for this
    // database, which the pool then throws away. Tests of the queue and of a job's timer turn it on.
    RUN_JOBS: '0',
    // Mail stays in the outbox, not printed into the test run's output (SMTP_URL, when a test sets it, wins).
    MAIL_TRANSPORT: 'outbox',
    // The Redis run (vitest.redis.config.ts): throttle counters in Redis, under a prefix of this
    // app's own unless a test shares one between two apps on purpose.
    ...(process.env.REDIS_URL
      ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:` }
      : {}),
    ...env,
  });
  // Hashes at argon2id's least cost: suites sign in and create users thousands of times, at 25-36 ms
  // a hash at the real cost. The hardening suites, whose figures are published, keep the real one.
  setPasswordHashCost(process.env.TEST_PASSWORD_HASH === 'owasp' ? owaspMinimum : testOnlyCost);
  const { database, drop } = await freshDatabase();
  await bootstrap(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword });
  const clock = {
    now: new Date(),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  // The server log of every test app goes to the run's log directory, where the global teardown
  // greps it (and the audit rows) for every secret the tests used (secret-scan.ts).
  const logDir = inject('apiLogDir') as string | undefined;
  const runId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const logFd = logDir ? openSync(path.join(logDir, `pino-${runId}.log`), 'a') : null;
  const app = await buildApp({
    config,
    database,
    now: () => clock.now,
    logger: logFd !== null,
    logStream: logFd === null ? undefined : { write: (line) => void writeSync(logFd, line) },
  });
  if (logDir)
    recordSecrets(app, path.join(logDir, `secrets-${runId}.txt`), [
      testAdmin.password,
      config.jwtSecret,
      ...Object.entries(env)
        .filter(([k]) => /SECRET|PASSWORD/.test(k))
        .map(([, v]) => v),
    ]);
  await app.ready();

  const login = async (email: string = testAdmin.email, password: string = testAdmin.password) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email, password },
    });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json().data.accessToken as string;
  };
  const lapseStepUp = async (token: string) => {
    // The session's id is the access token's `sid` claim (lib/tokens.ts).
    const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
    const lapsed = await database.db
      .update(sessions)
      .set({ steppedUpAt: new Date(clock.now.getTime() - stepUpMinutes * 60_000) })
      .where(eq(sessions.id, sid))
      .returning({ id: sessions.id });
    if (lapsed.length !== 1) throw new Error(`no session ${sid} to lapse the step-up of`);
    return token;
  };
  const loginWithoutStepUp = async (email?: string, password?: string) =>
    lapseStepUp(await login(email, password));
  const injectAs = (token: string, options: InjectOptions) =>
    app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });

  const stepUp = async (token: string, password: string = testAdmin.password, code?: string) => {
    const res = await injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/profile/step-up',
      payload: { password, ...(code ? { code } : {}) },
    });
    if (res.statusCode !== 200) throw new Error(`step-up failed: ${res.statusCode} ${res.body}`);
    return token;
  };

  return {
    app,
    database,
    config,
    clock,
    login,
    loginWithoutStepUp,
    lapseStepUp,
    injectAs,
    stepUp,
    close: async () => {
      await app.close();
      if (logDir) {
        await dumpAuditRows(database, path.join(logDir, `rows-${runId}.jsonl`));
        await recordPatients(database.db, logDir, runId);
      }
      if (logFd !== null) closeSync(logFd);
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The audit rows a test app wrote, and its records' change history (decision 081), for the secret
 * scan (a row must never hold a secret either: a password is recorded as changed, never its value).
 */
async function dumpAuditRows(database: Database, file: string) {
  const { writeFileSync } = await import('node:fs');
  const rows = [
    ...(await database.db.select().from(accessLogs)),
    ...(await database.db.select().from(errorLogs)),
  ];
  // Without the hash chain's columns (decision 080): a place and a digest, never anything a person wrote.
  const text = rows.map(({ chainSeq: _seq, chainHash: _hash, ...r }) => JSON.stringify(r));
  for (const row of await database.db.select().from(recordHistory)) text.push(JSON.stringify(row));
  writeFileSync(file, text.join('\n'));
}
