// `npm run bench:devices`: the device list (GET /api/v1/admin/machine) at scale on real PostgreSQL.
// Needs a database filled by `npm run seed:scale` (100,000 devices by default; BENCH_DEVICES
// changes the minimum). Times page 1 with and without search, sorted by each column both ways, and
// deep pages, the licence column and facet (issue 34: filtered and sorted by licence, and the facet
// values with their licence counts, cached and counted afresh), over HTTP against the real API,
// BENCH_ITERATIONS (default 200) requests per case after a warm-up, BENCH_ROUNDS (default 1) times.
// Machines get licences first when none has one (paid subscriptions, failed renewals, lapsed ones and
// exemptions, derived by the licence ledger). Reports the median over rounds of each case's median
// and p95 of the server's own time per request (Server-Timing, from request received to response
// sent) and of the round trip, and its p95 against the default page's in the same run (the
// baseline). Target: p95 <= 25 ms per case.
// Printed as a table and written to bench/results/devices-<date>.{json,md}; exit code 1 when over.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { bootstrap } from '../apps/api/src/bootstrap.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { roles, users } from '../apps/api/src/db/schema/users.ts';
import { hashPassword } from '../apps/api/src/lib/passwords.ts';
import { giveLicencesIfNone } from './devices-licences.mjs';
import { median } from './stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dbUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';
const loadAtStart = os.loadavg()[0];
const minDevices = Number(process.env.BENCH_DEVICES ?? 100_000);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const warmup = 20;
const budgetMs = 25;
const admin = { email: 'bench-devices@example.com', password: 'Bench-Devices-Passw0rd' };

const c = new pg.Client({ connectionString: dbUrl });
await c.connect().catch((error) => {
  console.error(
    `Cannot reach ${dbUrl.replace(/\/\/[^@]*@/, '//')}: ${error.message}\nStart PostgreSQL, create the database and fill it: DATABASE_URL=... npm run seed:scale`,
  );
  process.exit(1);
});
const deviceCount = Number(
  (await c.query('select count(*) as n from devices').catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n,
);
if (deviceCount < minDevices) {
  console.error(
    `The database has ${deviceCount.toLocaleString('en')} devices; the benchmark needs ${minDevices.toLocaleString('en')}.\nFill it first: DATABASE_URL=${dbUrl} npm run seed:scale -- --devices ${minDevices}`,
  );
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-devices-'));
const config = loadConfig({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DATABASE_URL: dbUrl,
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  DEMO_DATA: '0',
  PAYMENT_PROVIDER: 'demo',
  MAIL_TRANSPORT: 'outbox',
  LOG_LEVEL: 'warn',
  // The list alone: at 1,000,000 machines the fleet-wide jobs (alarm checks, licence sweeps) would
  // rewrite rows and take the cores in the middle of the timed requests.
  RUN_JOBS: '0',
  WEB_DIST: path.join(dataDir, 'no-web'),
});
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: null });
await bootstrap(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword });
// The bench's own admin, whatever admins the database already has.
const [adminRole] = await database.db
  .select({ id: roles.id })
  .from(roles)
  .where(eq(roles.type, 'admin'))
  .limit(1);
const passwordHash = await hashPassword(admin.password);
const [existing] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, admin.email));
if (existing)
  await database.db
    .update(users)
    .set({ passwordHash, roleId: adminRole.id })
    .where(eq(users.id, existing.id));
else
  await database.db
    .insert(users)
    .values({ userName: 'bench-devices', email: admin.email, passwordHash, roleId: adminRole.id });

await giveLicencesIfNone(c, database.db);
const licenceStates = (
  await c.query('select licence_state as state, count(*)::int as n from devices group by 1 order by 1')
).rows;

const app = await buildApp({ config, database, logger: false });
// The server's own time per request, from the moment it is received to the moment it is sent.
app.addHook('onSend', async (request, reply, payload) => {
  reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(3)}`);
  return payload;
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const login = await fetch(`${address}/api/v1/admin/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(admin),
});
const token = (await login.json()).data.accessToken;
const headers = { authorization: `Bearer ${token}` };

const call = async (query, route = '/api/v1/admin/machine') => {
  const t0 = performance.now();
  const res = await fetch(`${address}${route}?${query}`, { headers });
  const body = await res.json();
  const roundTrip = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${body.msg}`);
  const server = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return { server, roundTrip, data: body.data };
};

const deepPage = Math.floor(deviceCount / 10 / 2);
const cases = [
  ['page 1, newest first (default)', 'page=1&limit=10'],
  ['page 1, 100 rows', 'page=1&limit=100'],
  ['search city "berlin"', 'page=1&limit=10&search=berlin'],
  ['search machine number "SC-00123"', 'page=1&limit=10&search=SC-00123'],
  ['search serial number "scs-12345"', 'page=1&limit=10&search=scs-12345'],
  ['search location "harbour rehab"', 'page=1&limit=10&search=harbour%20rehab'],
  ['search country "united kingdom"', 'page=1&limit=25&search=united%20kingdom'],
  ['search no match', 'page=1&limit=10&search=no-such-device'],
  ['search sorted by city desc', 'page=1&limit=10&search=clinic&sort=city&direction=desc'],
  ...[
    'createdAt',
    'machineNumber',
    'serialNumber',
    'location',
    'city',
    'country',
    'status',
    'subscriptionStatus',
  ].flatMap((sort) =>
    ['asc', 'desc'].map((direction) => [
      `sorted by ${sort} ${direction}`,
      `page=1&limit=10&sort=${sort}&direction=${direction}`,
    ]),
  ),
  // Facets (issue 17): a broad and a narrow value of each, alone and together, with search and deep.
  ['facet status Inactive', 'page=1&limit=10&status=1'],
  ['facet status Active, by machine number', 'page=1&limit=10&status=2&sort=machineNumber'],
  ['facet no subscription', 'page=1&limit=10&subscriptionStatus=none'],
  ['facet subscription Expired, by city', 'page=1&limit=10&subscriptionStatus=3&sort=city'],
  ['facet country United States', 'page=1&limit=10&country=United%20States'],
  ['facet city Athens', 'page=1&limit=10&city=Athens'],
  ['facet app version never reported', 'page=1&limit=10&appVersion=none'],
  ['facet app version 42 (none match)', 'page=1&limit=10&appVersion=42'],
  ['facet online never seen', 'page=1&limit=10&online=never'],
  [
    'facets Germany + Active + Complete',
    'page=1&limit=10&country=Germany&status=2&subscriptionStatus=2&sort=machineNumber',
  ],
  ['facet country + search "clinic"', 'page=1&limit=10&country=France&search=clinic'],
  ['facet status Active, page 100', 'page=100&limit=10&status=2'],
  [`deep page ${deepPage.toLocaleString('en')}, newest first`, `page=${deepPage}&limit=10`],
  [`deep page ${deepPage.toLocaleString('en')}, by location`, `page=${deepPage}&limit=10&sort=location`],
  [
    'last page, by subscription status desc',
    `page=${Math.ceil(deviceCount / 25)}&limit=25&sort=subscriptionStatus&direction=desc`,
  ],
  // The licence (issue 34): its column sorted, its facet as a filter, and the facet values' counts.
  ['licence: sorted by licenceState asc', 'page=1&limit=10&sort=licenceState&direction=asc'],
  ['licence: sorted by licenceState desc', 'page=1&limit=10&sort=licenceState&direction=desc'],
  ['licence: facet Lapsed', 'page=1&limit=10&licence=lapsed'],
  ['licence: facet Lapsed, by licenceState', 'page=1&limit=10&licence=lapsed&sort=licenceState'],
  ['licence: facet Active, by machine number', 'page=1&limit=10&licence=active&sort=machineNumber'],
  ['licence: facet In grace, by city', 'page=1&limit=10&licence=grace&sort=city'],
  ['licence: facet Exempt', 'page=1&limit=10&licence=exempt'],
  ['licence: facet Unlicensed', 'page=1&limit=10&licence=unlicensed'],
  ['licence: ends within 14 days', 'page=1&limit=10&licenceEndsWithin=14'],
  ['licence: Lapsed + country Germany', 'page=1&limit=10&licence=lapsed&country=Germany'],
  ['licence: Lapsed + search "clinic"', 'page=1&limit=10&licence=lapsed&search=clinic'],
  ['licence: Lapsed, page 100', 'page=100&limit=10&licence=lapsed'],
  [
    `licence: deep page ${deepPage.toLocaleString('en')}, by licenceState`,
    `page=${deepPage}&limit=10&sort=licenceState`,
  ],
  ['licence: facet values with counts (kept 30 s)', '', '/api/v1/admin/machine-facets'],
  // A country nobody has is a key of its own: every request counts every facet afresh.
  ['licence: facet values, counted afresh', (i) => `country=Bench-${i}`, '/api/v1/admin/machine-facets'],
];

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (n) => Math.round(n * 100) / 100;
const roundResults = [];
console.log(
  `Device list on ${deviceCount.toLocaleString('en')} devices, ${iterations} requests per case (after ${warmup} warm-up), ${rounds} round(s), target p95 <= ${budgetMs} ms\n`,
);
const header = `${'case'.padEnd(44)} ${'server p50'.padStart(10)} ${'server p95'.padStart(10)} ${'trip p50'.padStart(9)} ${'trip p95'.padStart(9)}  rows  total`;
console.log(header);
let asked = 0;
for (let roundNo = 1; roundNo <= rounds; roundNo++) {
  if (rounds > 1) console.log(`round ${roundNo}`);
  const results = [];
  for (const [name, query, route] of cases) {
    const ask = () => call(typeof query === 'function' ? query(asked++) : query, route);
    for (let i = 0; i < warmup; i++) await ask();
    const server = [];
    const trip = [];
    let last;
    for (let i = 0; i < iterations; i++) {
      last = await ask();
      server.push(last.server);
      trip.push(last.roundTrip);
    }
    server.sort((a, b) => a - b);
    trip.sort((a, b) => a - b);
    // The facet values answer counts, not rows: the licence states offered and their machines.
    const listed = last.data.allDevices ?? last.data.licences;
    const r = {
      case: name,
      query: typeof query === 'function' ? query('N') : query,
      serverP50: round(percentile(server, 50)),
      serverP95: round(percentile(server, 95)),
      roundTripP50: round(percentile(trip, 50)),
      roundTripP95: round(percentile(trip, 95)),
      rows: listed.length,
      total: last.data.total ?? last.data.licences.reduce((sum, l) => sum + l.count, 0),
      totalPages: last.data.totalPages,
    };
    results.push(r);
    console.log(
      `${(r.serverP95 <= budgetMs ? '' : '! ') + name}`.padEnd(44) +
        ` ${r.serverP50.toFixed(2).padStart(10)} ${r.serverP95.toFixed(2).padStart(10)} ${r.roundTripP50.toFixed(2).padStart(9)} ${r.roundTripP95.toFixed(2).padStart(9)}  ${String(r.rows).padStart(4)}  ${r.total.toLocaleString('en')}`,
    );
  }
  roundResults.push(results);
}
// Each case's figures: the median over the rounds; its p95 against the default page's (the baseline).
const results = roundResults[0].map((first, i) => {
  const med = (key) => round(median(roundResults.map((rs) => rs[i][key])));
  return {
    ...first,
    serverP50: med('serverP50'),
    serverP95: med('serverP95'),
    roundTripP50: med('roundTripP50'),
    roundTripP95: med('roundTripP95'),
  };
});
for (const r of results) {
  r.ratioToDefaultPage = round(r.serverP95 / results[0].serverP95);
  r.ok = r.serverP95 <= budgetMs;
}

await app.close();
await database.close();
const {
  rows: [version],
} = await c.query('show server_version');
await c.end();

const report = {
  date: new Date().toISOString(),
  postgres: version.server_version,
  database: dbUrl.replace(/\/\/[^@]*@/, '//'),
  devices: deviceCount,
  iterations,
  rounds,
  budgetMs,
  cpus: os.cpus().length,
  loadAverage: { atStart: loadAtStart, atEnd: os.loadavg()[0] },
  licences: licenceStates,
  note: 'server = Server-Timing (request received to response sent, in the API process); trip = HTTP round trip over loopback. Milliseconds.',
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
// A million-machine run has a file of its own beside the day's 100,000-machine one.
const scale = deviceCount >= 1_000_000 ? `${Math.floor(deviceCount / 1_000_000)}m-` : '';
const stem = path.join(root, 'bench/results', `devices-${scale}${report.date.slice(0, 10)}`);
writeFileSync(`${stem}.json`, JSON.stringify(report, null, 2) + '\n');
const md = [
  `# Device list benchmark, ${report.date.slice(0, 10)}`,
  '',
  `${deviceCount.toLocaleString('en')} devices (licences: ${licenceStates.map((l) => `${l.state} ${l.n}`).join(', ')}), PostgreSQL ${version.server_version}, ${report.cpus} CPUs shared with other work (1-minute load average ${loadAtStart.toFixed(1)} at start, ${report.loadAverage.atEnd.toFixed(1)} at the end), ${iterations} requests per case after ${warmup} warm-up, median of ${rounds} round(s). Target: server p95 <= ${budgetMs} ms. Times in ms; "× default" is the case's server p95 over the default page's in the same run.`,
  '',
  '| case | server p50 | server p95 | × default | round trip p50 | round trip p95 | rows | total |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.ok ? '' : '**over** '}${r.case} | ${r.serverP50} | ${r.serverP95} | ${r.ratioToDefaultPage} | ${r.roundTripP50} | ${r.roundTripP95} | ${r.rows} | ${r.total} |`,
  ),
  '',
].join('\n');
writeFileSync(`${stem}.md`, md);
const over = results.filter((r) => !r.ok);
console.log(
  `\n${over.length === 0 ? 'All cases within' : `${over.length} case(s) over`} the target. Written to ${path.relative(root, stem)}.json and .md`,
);
process.exitCode = over.length ? 1 : 0;
