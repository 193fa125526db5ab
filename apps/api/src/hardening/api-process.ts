import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { apiServerEntry, buildApiIfStale } from '../../../../scripts/api-build.mjs';
import { repoRoot } from '../test/test-output.ts';

/*
 * The real API server as a child process, started the way `npm start` starts it (node on the
 * compiled apps/api/dist/server.js, built first when the sources changed; no web build): the fault
 * and load suites kill it, restart it on the same data and measure it from outside, which an
 * in-process app.inject() cannot show.
 */

export const hardeningAdmin = { email: 'admin@example.com', password: 'Hardening-Passw0rd!' } as const;

export type ApiProcess = {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far (for failure messages). */
  output: () => string;
  /** Resolves when the process has exited (killed or stopped). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal: NodeJS.Signals) => Promise<void>;
};

/** Settings every suite shares; `env` adds or overrides (DATABASE_URL, SMTP_URL, ...). */
export function apiEnv(opts: {
  port: number;
  dataDir: string;
  jwtSecret?: string;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(opts.port),
    DATA_DIR: opts.dataDir,
    JWT_SECRET: opts.jwtSecret ?? randomBytes(32).toString('hex'),
    ADMIN_EMAIL: hardeningAdmin.email,
    ADMIN_PASSWORD: hardeningAdmin.password,
    DEMO_DATA: '0',
    // With DATABASE_URL the provider must be named (config.ts); these suites take no real payments.
    PAYMENT_PROVIDER: 'demo',
    MAIL_TRANSPORT: 'outbox',
    LOG_LEVEL: 'warn',
    // No built console: the suites only talk to the API.
    WEB_DIST: path.join(opts.dataDir, 'no-web'),
    SUBSCRIPTION_SWEEP_SECONDS: '0',
    ...opts.env,
  };
}

/** Starts the server and resolves once /api/health answers 200 (or rejects with its output). */
export async function startApi(
  env: Record<string, string>,
  {
    readyTimeoutMs = 90_000,
    nodeArgs = [] as string[],
    // Another build of the server (bench:licence's baseline, built from an earlier commit by itself).
    serverEntry = apiServerEntry,
    cwd = repoRoot,
  } = {},
): Promise<ApiProcess> {
  if (serverEntry === apiServerEntry) await buildApiIfStale({ quiet: true });
  const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', serverEntry], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    // Only the tail matters for diagnosis; a long load run must not grow this without bound.
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${env.PORT}`;
  const api: ApiProcess = {
    url,
    pid: child.pid!,
    child,
    output: () => out,
    exited,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };

  const deadline = Date.now() + readyTimeoutMs;
  let dead = false;
  void exited.then(() => (dead = true));
  while (Date.now() < deadline && !dead) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return api;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await api.kill('SIGKILL');
  throw new Error(`API did not become ready on ${url}:\n${out.slice(-4000)}`);
}

/** Signs in as the hardening admin through the real login route; returns the bearer token. */
export async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(hardeningAdmin),
  });
  const body = (await res.json()) as { data?: { accessToken?: string } };
  if (res.status !== 200 || !body.data?.accessToken)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.accessToken;
}

/**
 * Confirms the hardening admin's password on this session (step-up, decision 046): creating admins
 * needs it within the last 5 minutes. Returns the token.
 */
export async function stepUp(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/admin/profile/step-up`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ password: hardeningAdmin.password }),
  });
  if (res.status !== 200) throw new Error(`step-up failed: ${res.status} ${await res.text()}`);
  return token;
}

/** One JSON call with a bearer token; never throws for an HTTP status, only for a network failure. */
export async function call(
  url: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
  timeoutMs = 15_000,
) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, json: parseEnvelope(text), text };
}

type EnvelopeLike = { code?: number; msg?: string; data?: unknown };
function parseEnvelope(text: string): EnvelopeLike | null {
  try {
    return JSON.parse(text) as EnvelopeLike;
  } catch {
    return null;
  }
}
