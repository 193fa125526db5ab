import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApiIfStale } from '../../../../scripts/api-build.mjs';
import { apiEnv, startApi, type ApiProcess } from './api-process.ts';
import { nginxAvailable, nginxBin, startNginx, type NginxBalancer } from './nginx-balancer.ts';
import { createScratchDatabase } from './private-postgres.ts';

/*
 * Several real API processes on one PostgreSQL database and one Redis, behind nginx (the
 * multi-instance suite, issue 36 item 5): as docs/deployment.md runs them, one JWT_SECRET, one
 * REDIS_PREFIX, PUBLIC_URL the balancer's address and TRUST_PROXY the balancer's address. Each run
 * has a database and a Redis prefix of its own, and ports nobody listens on.
 */

export const serverPostgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Whether something answers TCP on the URL's host and port. */
export const answers = (url: string, defaultPort: number) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort), timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

export type ScratchDatabase = {
  url: string;
  /** Rows of one SQL statement on the database. */
  query: <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;
  drop: () => Promise<void>;
};

/** A new empty database on the server for one run; `drop()` ends its connections and removes it. */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const scratch = await createScratchDatabase(prefix, serverPostgresUrl);
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  return {
    url: scratch.url,
    query: async <R>(text: string, values?: unknown[]) => (await client.query(text, values)).rows as R[],
    drop: async () => {
      await client.end().catch(() => {});
      await scratch.drop();
    },
  };
}

/** What each instance of one installation is started with; `extra` adds or overrides. */
export function instanceEnv(opts: {
  port: number;
  databaseUrl: string;
  jwtSecret: string;
  redisPrefix: string;
  publicUrl: string;
  extra?: Record<string, string>;
}): { env: Record<string, string>; dataDir: string } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'multi-instance-api-'));
  const env = apiEnv({
    port: opts.port,
    dataDir,
    jwtSecret: opts.jwtSecret,
    env: {
      DATABASE_URL: opts.databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: opts.redisPrefix,
      PUBLIC_URL: opts.publicUrl,
      // The balancer's own address, not a hop count (lib/trust-proxy.ts): a client that reaches an
      // instance directly cannot choose its address, and a client's own X-Forwarded-For is ignored.
      TRUST_PROXY: '127.0.0.1',
      ...opts.extra,
    },
  });
  return { env, dataDir };
}

/**
 * Starts an instance on each of `envs` at the same moment, after one build of the server (each
 * startApi checks the build; ten at once would each build and swap the bundle under the others).
 * Answers every start's outcome, in order.
 */
export async function startTogether(envs: Array<Record<string, string>>, readyTimeoutMs = 120_000) {
  await buildApiIfStale({ quiet: true });
  return Promise.allSettled(envs.map((env) => startApi(env, { readyTimeoutMs })));
}

export type Cluster = {
  /** The load balancer: what clients call. */
  url: string;
  /** The instances, each also reachable directly (to act on one of them on purpose). */
  instances: ApiProcess[];
  /** host:port of each instance, as nginx's X-Upstream header names the one that answered. */
  upstreams: string[];
  database: ScratchDatabase;
  /** Starts instance `i` again (after a kill) on the same settings. */
  restart: (i: number) => Promise<ApiProcess>;
  stop: () => Promise<void>;
};

/** `count` API instances on a fresh database and Redis prefix, behind nginx, all answering. */
export async function startCluster(count: number, extra: Record<string, string> = {}): Promise<Cluster> {
  const database = await scratchDatabase('multi');
  const nginxPort = await freePort();
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const jwtSecret = randomBytes(32).toString('hex');
  const redisPrefix = `multi-instance-${randomBytes(6).toString('hex')}:`;
  const settings = ports.map((port) =>
    instanceEnv({
      port,
      databaseUrl: database.url,
      jwtSecret,
      redisPrefix,
      publicUrl: `http://127.0.0.1:${nginxPort}`,
      extra,
    }),
  );
  const instances: ApiProcess[] = [];
  let nginx: NginxBalancer | null = null;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(instances.map((api) => api.kill('SIGTERM')));
    for (const s of settings) rmSync(s.dataDir, { recursive: true, force: true });
    await database.drop();
  };
  try {
    // Started together, as an orchestrator would: start-up work takes turns under the lock.
    const starts = await startTogether(settings.map((s) => s.env));
    for (const s of starts) if (s.status === 'fulfilled') instances.push(s.value);
    for (const s of starts) if (s.status === 'rejected') throw s.reason;
    nginx = await startNginx(
      nginxPort,
      ports.map((port) => `127.0.0.1:${port}`),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: nginx.url,
    instances,
    upstreams: ports.map((port) => `127.0.0.1:${port}`),
    database,
    restart: async (i) => (instances[i] = await startApi(settings[i]!.env)),
    stop,
  };
}

export type Answer = {
  status: number;
  /** The envelope's fields, when the body is JSON. */
  body: { code?: number; msg?: string; data?: unknown } | null;
  headers: http.IncomingHttpHeaders;
  /** Which instance answered, when the call went through nginx. */
  upstream: string | undefined;
};

/**
 * One HTTP call on a connection of its own, from `localAddress` (127.0.0.2, 127.0.0.3 ...: other
 * clients as far as nginx can tell) when given. Never throws for a status.
 */
export function request(
  url: string,
  {
    method = 'GET',
    token,
    body,
    headers = {},
    localAddress,
  }: {
    method?: string;
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
    localAddress?: string;
  } = {},
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: false,
        localAddress,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () => {
          let parsed: Answer['body'] = null;
          try {
            parsed = JSON.parse(text) as Answer['body'];
          } catch {
            parsed = null;
          }
          const upstream = res.headers['x-upstream'];
          resolve({
            status: res.statusCode ?? 0,
            body: parsed,
            headers: res.headers,
            upstream: Array.isArray(upstream) ? upstream.join(',') : upstream,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Why the suite cannot run here, or null: nginx (when `nginx`), PostgreSQL and Redis must answer.
 * The line says what to install or start.
 */
export async function missingForSuite({ nginx }: { nginx: boolean }): Promise<string | null> {
  if (nginx && !nginxAvailable())
    return `no nginx at ${nginxBin} (Debian: apt-get install -y nginx; NGINX_BIN names another)`;
  if (!(await answers(serverPostgresUrl, 5432)))
    return `no PostgreSQL answers at ${new URL(serverPostgresUrl).host} (DATABASE_URL names another)`;
  if (!(await answers(redisUrl, 6379)))
    return `no Redis answers at ${new URL(redisUrl).host} (REDIS_URL names another)`;
  return null;
}
