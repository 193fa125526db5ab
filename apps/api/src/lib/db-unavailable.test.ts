import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import { executeSqlOnPool } from '../db/job-queue-schema.ts';
import { listenOnPostgres } from '../db/notifications.ts';
import { isDatabaseUnavailable } from './db-unavailable.ts';

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A peer that accepts TCP connections and never says a word: a hung or firewalled database. */
async function silentPeer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => void sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The API's view of a PostgreSQL server that is not there: same pool settings as client.ts. */
function unreachableDatabase(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 500 });
  pool.on('error', () => {});
  const db = drizzle(pool);
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    ping: async () => void (await db.execute(sql`select 1`)),
    listen: async (channel, handlers) =>
      listenOnPostgres({ connectionString: url, connectionTimeoutMillis: 500 }, channel, handlers),
    startupLock: (work) => work(),
    executeSql: executeSqlOnPool(pool),
    close: () => pool.end(),
  };
}

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection, wrapped by Drizzle or not', async () => {
    const database = unreachableDatabase(`postgres://postgres@127.0.0.1:${await closedPort()}/x`);
    const error = await database.db.execute(sql`select 1`).then(
      () => null,
      (e: unknown) => e,
    );
    await database.close();
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('recognises server shutdown and connection SQLSTATEs but not query errors', () => {
    const withCode = (code: string) => Object.assign(new Error('x'), { code });
    expect(isDatabaseUnavailable(withCode('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('57P03'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('query failed', { cause: withCode('ECONNRESET') }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    // A unique violation, a syntax error and a plain bug are not outages.
    expect(isDatabaseUnavailable(withCode('23505'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('42601'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('undefined is not a function'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

describe('PostgreSQL that does not answer', () => {
  let peer: Awaited<ReturnType<typeof silentPeer>>;
  beforeAll(async () => {
    peer = await silentPeer();
  });
  afterAll(() => peer.close());

  it('gives up connecting after the configured timeout instead of waiting forever', async () => {
    const started = Date.now();
    const error = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${peer.port}/x`,
      dataDir: null,
      connectTimeoutMs: 300,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});

describe('the API while its database is down', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  let database: Database;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'api-db-down-'));
    database = unreachableDatabase(`postgres://postgres@127.0.0.1:${await closedPort()}/x`);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://unused',
      PAYMENT_PROVIDER: 'demo',
      MAIL_TRANSPORT: 'outbox',
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      SUBSCRIPTION_SWEEP_SECONDS: '0',
      // The job queue starts on a reachable database only (its tables are checked at start).
      RUN_JOBS: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
    });
    app = await buildApp({ config, database, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a request that needs the database with 503 and the envelope, not 500', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: 'admin@example.com', password: 'whatever1' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      code: 503,
      msg: 'The service is temporarily unavailable. Please try again in a moment.',
      data: null,
    });
  });

  it('reports the database down on the health route', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json().data).toEqual({ status: 'unavailable', database: 'down' });
  });
});
