// `npm run bench:api`: the API's throughput against what its own stack can do, in one run.
// On PostgreSQL with the demo data, three servers in turn answer the same routes: a bare Fastify
// hello-world (the ceiling), a minimal Fastify + node-postgres server doing the same queries
// (bench/api-servers/minimal.mjs), and the real API; then the real API again on the embedded
// database. autocannon, BENCH_CONNECTIONS (50) connections, BENCH_SECONDS (5) per measurement,
// BENCH_ROUNDS (3) rounds; the median round is quoted, and the ratio API ÷ minimal per route.
// BENCH_ROUTES=heartbeat,device list measures only those (a quick look while working; the README
// quotes full runs), BENCH_EMBEDDED=0 skips the embedded database. BENCH_MINIMAL_SESSION_QUERY=0:
// the minimal server checks the token alone, without a session query (issue 36's comparison).
// Writes bench/results/api-<date>.{json,md}. Exit code 1 when a PostgreSQL ratio is under
// BENCH_MIN_RATIO (0.5) or the embedded device list under 3 × 190 req/s.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { apiServerEntry, buildApiIfStale } from '../scripts/api-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const minRatio = Number(process.env.BENCH_MIN_RATIO ?? 0.5);
const minimalSessionQuery = process.env.BENCH_MINIMAL_SESSION_QUERY ?? '1';
const embeddedListTarget = 3 * 190;
const jwtSecret = randomBytes(32).toString('hex');
const admin = { email: 'bench-api@example.com', password: 'Bench-Api-Passw0rd' };

async function scratchDatabase() {
  const name = `bench_api_${randomBytes(4).toString('hex')}`;
  const run = async (sql) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

function startProcess(args, env, port) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors = (errors + d).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  const ready = (async () => {
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${errors}`);
      try {
        await fetch(`${base}/api/health`);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    throw new Error(`${args.join(' ')} did not start: ${errors}`);
  })();
  return {
    base,
    ready,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

const apiEnv = (extra) => ({
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  JWT_SECRET: jwtSecret,
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  DEMO_DATA: '1',
  // Measured alone: no demo fleet calling beside the benchmark's load.
  DEMO_FLEET: '0',
  LOG_LEVEL: 'warn',
  PAYMENT_PROVIDER: 'demo',
  MAIL_TRANSPORT: 'outbox',
  SUBSCRIPTION_SWEEP_SECONDS: '0',
  SESSION_IDLE_MINUTES: '600',
  DEVICE_RATE_PER_MINUTE: '1000000',
  ...extra,
});
// As `npm start` runs it: the compiled bundle, no TypeScript loader.
const startApi = async (port, extra) => {
  await buildApiIfStale({ quiet: true });
  // BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the API while it is measured.
  const nodeArgs = process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return startProcess([...nodeArgs, '--enable-source-maps', apiServerEntry], apiEnv(extra), port);
};

async function json(base, method, route, { token, body, headers = {} } = {}) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed.data;
}

/** Signs in, picks a device, enrols another one: what the routes need. */
async function prepare(base) {
  const { accessToken: token } = await json(base, 'POST', '/api/v1/admin/login', { body: admin });
  const list = await json(base, 'GET', '/api/v1/admin/machine?page=1&limit=10', { token });
  const deviceId = list.allDevices[0]._id;
  let credential = null;
  try {
    const target = list.allDevices[1]._id;
    const { code } = await json(base, 'POST', `/api/v1/admin/machine/${target}/enrolment/code`, { token });
    credential = (await json(base, 'POST', '/api/v1/app/enrol', { body: { code } })).credential;
  } catch (error) {
    console.error(`(no device API to enrol with: ${error.message}; the heartbeat is left out)`);
  }
  return { token, deviceId, credential };
}

function routesFor({ token, deviceId, credential }) {
  const bearer = { authorization: `Bearer ${token}` };
  const routes = [
    { name: 'device list', method: 'GET', path: '/api/v1/admin/machine?page=1&limit=10', headers: bearer },
    { name: 'session ping', method: 'GET', path: '/api/v1/admin/session', headers: bearer },
    { name: 'device detail', method: 'GET', path: `/api/v1/admin/machine/${deviceId}`, headers: bearer },
    {
      name: 'access-log list',
      method: 'GET',
      path: '/api/v1/admin/access-logs/all?page=1&limit=10',
      headers: bearer,
    },
    {
      name: 'status change (write)',
      method: 'PUT',
      path: `/api/v1/admin/machine/${deviceId}`,
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 2 }),
    },
  ];
  const only = process.env.BENCH_ROUTES?.split(',').map((r) => r.trim());
  if (credential)
    routes.push({
      name: 'heartbeat',
      method: 'POST',
      path: '/api/v1/app/heartbeat',
      headers: { authorization: `Device ${credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ versionCode: 42, versionName: '4.2.0' }),
    });
  return only ? routes.filter((r) => only.includes(r.name)) : routes;
}

async function measure(base, route) {
  const r = await autocannon({
    url: `${base}${route.path}`,
    method: route.method,
    headers: route.headers,
    body: route.body,
    connections,
    duration: seconds,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pick = (samples) => {
  const m = median(samples.map((s) => s.rps));
  return samples.find((s) => s.rps === m);
};

class SkipEmbedded extends Error {}
const results = { date: new Date().toISOString(), connections, seconds, rounds, postgres: [], embedded: [] };
const scratch = await scratchDatabase();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
const servers = [];
try {
  const api = await startApi(3711, { DATABASE_URL: scratch.url, DATA_DIR: path.join(dataDir, 'pg') });
  servers.push(api);
  await api.ready;
  const ctx = await prepare(api.base);
  const hello = startProcess(['bench/api-servers/hello.mjs'], {}, 3712);
  const minimal = startProcess(
    ['bench/api-servers/minimal.mjs'],
    { DATABASE_URL: scratch.url, JWT_SECRET: jwtSecret, MINIMAL_SESSION_QUERY: minimalSessionQuery },
    3713,
  );
  servers.push(hello, minimal);
  await Promise.all([hello.ready.catch(() => {}), minimal.ready.catch(() => {})]);
  const routes = routesFor(ctx);
  for (const route of routes) {
    const samples = { hello: [], minimal: [], api: [] };
    for (let round = 0; round < rounds; round++) {
      for (const [name, server] of [
        ['hello', hello],
        ['minimal', minimal],
        ['api', api],
      ]) {
        samples[name].push(await measure(server.base, route));
      }
    }
    const row = {
      route: route.name,
      hello: pick(samples.hello),
      minimal: pick(samples.minimal),
      api: pick(samples.api),
    };
    row.ratio = row.api.rps / row.minimal.rps;
    results.postgres.push(row);
    console.log(
      `${route.name.padEnd(22)} hello ${row.hello.rps.toFixed(0).padStart(6)}  minimal ${row.minimal.rps.toFixed(0).padStart(6)}  api ${row.api.rps.toFixed(0).padStart(6)} (p50 ${row.api.p50} ms, p99 ${row.api.p99} ms, errors ${row.api.errors})  ratio ${row.ratio.toFixed(2)}`,
    );
  }
  await Promise.all(servers.splice(0).map((s) => s.stop()));

  if (process.env.BENCH_EMBEDDED === '0') throw new SkipEmbedded();
  const embedded = await startApi(3714, { DATA_DIR: path.join(dataDir, 'pglite') });
  servers.push(embedded);
  await embedded.ready;
  const embeddedRoutes = routesFor(await prepare(embedded.base));
  for (const route of embeddedRoutes) {
    const samples = [];
    for (let round = 0; round < rounds; round++) samples.push(await measure(embedded.base, route));
    const row = { route: route.name, api: pick(samples) };
    results.embedded.push(row);
    console.log(
      `embedded ${route.name.padEnd(22)} api ${row.api.rps.toFixed(0).padStart(6)} (p50 ${row.api.p50} ms, p99 ${row.api.p99} ms, errors ${row.api.errors})`,
    );
  }
} catch (error) {
  if (!(error instanceof SkipEmbedded)) throw error;
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await scratch.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}

const failures = [
  ...results.postgres
    .filter((r) => r.ratio < minRatio)
    .map((r) => `${r.route}: ratio ${r.ratio.toFixed(2)} < ${minRatio}`),
  ...results.embedded
    .filter((r) => r.route === 'device list' && r.api.rps < embeddedListTarget)
    .map((r) => `embedded device list: ${r.api.rps.toFixed(0)} req/s < ${embeddedListTarget}`),
];
const md = [
  `# bench:api, ${results.date}`,
  '',
  `autocannon, ${connections} connections, ${seconds} s per measurement, median of ${rounds} rounds; one 2-core machine running the load, the server and PostgreSQL.`,
  '',
  '| route (PostgreSQL, demo data) | hello-world req/s | minimal Fastify + pg req/s | API req/s | API p50 / p99 ms | API ÷ minimal |',
  '|---|---:|---:|---:|---:|---:|',
  ...results.postgres.map(
    (r) =>
      `| ${r.route} | ${r.hello.rps.toFixed(0)} | ${r.minimal.rps.toFixed(0)} | ${r.api.rps.toFixed(0)} | ${r.api.p50} / ${r.api.p99} | ${r.ratio.toFixed(2)} |`,
  ),
  '',
  '| route (embedded PGlite, demo data) | API req/s | API p50 / p99 ms |',
  '|---|---:|---:|',
  ...results.embedded.map((r) => `| ${r.route} | ${r.api.rps.toFixed(0)} | ${r.api.p50} / ${r.api.p99} |`),
  '',
  failures.length ? `Targets not met: ${failures.join('; ')}` : 'Every target met.',
  '',
].join('\n');
const out = path.join(root, 'bench/results');
mkdirSync(out, { recursive: true });
const stamp = results.date.slice(0, 10);
// A partial run is a look, not a result: the files keep the last full one.
if (process.env.BENCH_ROUTES || process.env.BENCH_EMBEDDED === '0')
  console.log('(partial run: bench/results/ left as it was)');
else {
  writeFileSync(path.join(out, `api-${stamp}.json`), JSON.stringify({ ...results, failures }, null, 2));
  writeFileSync(path.join(out, `api-${stamp}.md`), md);
}
console.log(`\n${md}`);
process.exit(failures.length ? 1 : 0);
