// `npm run bench:retention`: the daily retention run on PostgreSQL under a fleet's load (issue 38,
// Numbers: at 10 M log rows a month's worth is removed within 2 minutes without delaying the device
// list or ingest by more than 10 %). Creates a database of its own on BENCH_POSTGRES_URL (default
// postgres://postgres@127.0.0.1:5432), migrates it and fills BENCH_LOG_ROWS (10,000,000) audit rows
// through the chain's trigger (nine access rows to one error row, every index kept), spread evenly
// over 12 months whose oldest is past LOG_RETENTION_DAYS (2,192): a month's worth is due. Then starts
// the API on it (its own jobs off), provisions BENCH_MACHINES (200) machines, and measures, under
// bench:ingest's load (heartbeats at 200/s, 100-item log batches 4 at a time) plus the console's
// device list at 20/s, in windows of BENCH_SECONDS (10):
//   - the baseline: one window before the run and one after it (the same run, the same database);
//   - during the run: windows back to back until the retention run (in this process, as the job
//     runs it) has finished.
// Targets: the run within 120 s; the device list's p95 and the heartbeats' p95 during the run within
// 110 % of the baseline's; log items/s during the run at least 90 % of the baseline's. Writes
// bench/results/retention-<rows>-<date>.json; exit 1 when a target is missed (at 10 M rows or more)
// or when the run removed other than the due rows or left the chain broken.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { apiPaths } from '@app/contract/paths';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { apiEnv, hardeningAdmin, login, startApi } from '../apps/api/src/hardening/api-process.ts';
import { createAuditChainService } from '../apps/api/src/modules/audit-chain/audit-chain-service.ts';
import { createRetention } from '../apps/api/src/modules/retention/retention-service.ts';
import { AdminClient } from '../tools/fleet-simulator/admin-client.ts';
import { createBenchDatabase, freePort } from './ingest-database.ts';
import { closedLoop, createLoadClient, openLoop, percentiles, type Sample } from './ingest-load.ts';
import { provisionFleet } from './ingest-provision.ts';
import { median } from './stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const rows = Number(process.env.BENCH_LOG_ROWS ?? 10_000_000);
const machineCount = Number(process.env.BENCH_MACHINES ?? 200);
const windowMs = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const logDays = 2_192;
const dayMs = 86_400_000;
const perStatement = 500_000;
const targets = { runSeconds: 120, listP95Ratio: 1.1, heartbeatP95Ratio: 1.1, logItemsRatio: 0.9 };

const loadAtStart = os.loadavg()[0] ?? 0;
const database = await createBenchDatabase(serverUrl).catch((err: Error) => {
  console.error(`Cannot create a database on ${serverUrl}: ${err.message}. Is PostgreSQL running?`);
  process.exit(1);
});
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
const q = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows;

// 12 months of rows, oldest first (the chain's order is the insert's); the oldest month is past the
// period at `runAt`, the start of the run.
const runAt = new Date();
const from = new Date(runAt.getTime() - (logDays + 30) * dayMs);
const spanSeconds = 365 * 86_400;
const fill = (table: 'access_logs' | 'error_logs', total: number, first: number, last: number) =>
  table === 'access_logs'
    ? `insert into access_logs (created_at, user_id, user_email, resource, location, status_code, duration_ms,
         machine_number, record_kind, record_id, changed_fields)
       select $1::timestamptz + (g * ${spanSeconds / total}) * interval '1 second', (100000 + (g / 20) % 5000)::text,
         'user' || ((g / 20) % 5000) || '@example.com',
         (array['GET /api/v1/admin/machine', 'GET /api/v1/admin/machine/:id', 'PUT /api/v1/admin/machine/:id',
                'GET /api/v1/admin/patient/all', 'POST /api/v1/admin/login'])[1 + g % 5],
         '198.51.100.' || (1 + g % 250), 200, 5 + g % 300, 'SC-' || lpad((1 + (g / 50) % 1000)::text, 7, '0'),
         case when g % 5 = 2 then 'device' end, case when g % 5 = 2 then gen_random_uuid()::text end,
         case when g % 5 = 2 then array['status', 'doctorId'] end
       from generate_series(${first}, ${last}) g`
    : `insert into error_logs (created_at, user_id, user_email, resource, function_name, status_code, message, location)
       select $1::timestamptz + (g * ${spanSeconds / total}) * interval '1 second', (100000 + (g / 20) % 5000)::text,
         'user' || ((g / 20) % 5000) || '@example.com', 'PUT /api/v1/admin/machine/:id', 'updateMachine',
         400 + g % 5, 'Bench error ' || (g % 97), '198.51.100.' || (1 + g % 250)
       from generate_series(${first}, ${last}) g`;

async function fillLogs() {
  const errorRows = Math.round(rows / 10);
  for (const [table, total] of [
    ['access_logs', rows - errorRows],
    ['error_logs', errorRows],
  ] as const) {
    for (let first = 1; first <= total; first += perStatement) {
      const last = Math.min(first + perStatement - 1, total);
      await q(fill(table, total, first, last), [from.toISOString()]);
      console.error(`  ${table}: ${last.toLocaleString('en')} of ${total.toLocaleString('en')}`);
    }
  }
  await q('vacuum analyze access_logs');
  await q('vacuum analyze error_logs');
}

const countDue = async () =>
  Number(
    (
      await q(
        `select (select count(*) from access_logs where created_at < $1) + (select count(*) from error_logs where created_at < $1) as n`,
        [new Date(runAt.getTime() - logDays * dayMs).toISOString()],
      )
    )[0]!.n,
  );

let failed = false;
const api = { current: null as Awaited<ReturnType<typeof startApi>> | null };
try {
  const migrated = await openDatabase({ databaseUrl: database.url, dataDir: null });
  await migrated.close();
  console.error(`filling ${rows.toLocaleString('en')} log rows into ${database.name}...`);
  await fillLogs();
  const due = await countDue();

  api.current = await startApi(
    apiEnv({
      port: await freePort(),
      dataDir: mkdtempSync(path.join(os.tmpdir(), 'bench-retention-')),
      env: {
        DATABASE_URL: database.url,
        ANON_RATE_PER_MINUTE: '1000000',
        DEVICE_RATE_PER_MINUTE: '1000000',
        RETENTION_SECONDS: '0',
        HOUSEKEEPING_SECONDS: '0',
      },
    }),
  );
  const url = api.current.url;
  const admin = new AdminClient({ baseUrl: url }, hardeningAdmin.email, hardeningAdmin.password);
  const fleet = await provisionFleet(admin, url, machineCount, 0);
  const token = await login(url);
  const client = createLoadClient(url, 64);
  const heartbeatBody = JSON.stringify({
    versionCode: 42,
    versionName: '4.2.0',
    latitude: 52.52,
    longitude: 13.405,
  });
  const machine = (n: number) => fleet.machines[n % fleet.machines.length]!;
  const logBatch = () =>
    JSON.stringify({
      items: Array.from({ length: 100 }, (_, i) => ({
        id: crypto.randomUUID(),
        resource: 'app/treatment/start',
        location: '10.0.0.7',
        time: new Date(Date.now() - (i + 1) * 1000).toISOString(),
      })),
    });

  /** One window of bench:ingest's load and the console's device list, all at once. */
  async function window() {
    const [list, heartbeats, logs] = await Promise.all([
      openLoop(20, windowMs, () =>
        client.get(`${apiPaths.machines}?page=1&limit=10`, { authorization: `Bearer ${token}` }),
      ),
      openLoop(200, windowMs, (n) => client.post(apiPaths.appHeartbeat, machine(n).device, heartbeatBody)),
      closedLoop(4, windowMs, (n) => client.post(apiPaths.appAccessLogs, machine(n).device, logBatch())),
    ]);
    const rate = (s: Sample, per = 1) => ((s.count - s.failures) * per * 1000) / s.elapsedMs;
    const failures = list.failures + heartbeats.failures + logs.failures;
    if (failures)
      console.error(`  failures: ${JSON.stringify([list.statuses, heartbeats.statuses, logs.statuses])}`);
    return { list, heartbeats, logs, logItems: rate(logs, 100), failures };
  }
  type Window = Awaited<ReturnType<typeof window>>;
  const summary = (ws: Window[]) => ({
    listP95Ms: percentiles(ws.flatMap((w) => w.list.latencies)).p95,
    heartbeatP95Ms: percentiles(ws.flatMap((w) => w.heartbeats.latencies)).p95,
    logItemsPerSecond: Math.round(median(ws.map((w) => w.logItems))),
    failures: ws.reduce((n, w) => n + w.failures, 0),
  });

  await window(); // warm-up: caches, the session, every machine seen
  const before = await window();
  const retentionDb = await openDatabase({ databaseUrl: database.url, dataDir: null });
  const started = performance.now();
  let runMs = 0;
  const run = createRetention({
    db: retentionDb.db,
    now: () => runAt,
    log: { info: () => {} },
    config: { everySeconds: 0, healthYears: 10, healthCountryYears: [], logDays },
    housekeeping: { mailRetentionDays: 30, paymentEventRetentionDays: 30 },
    mailMaxAttempts: 8,
  })
    .run()
    .finally(() => (runMs = performance.now() - started));
  const during: Window[] = [];
  let done = false;
  void run.finally(() => (done = true));
  do during.push(await window());
  while (!done);
  const removed = await run;
  await retentionDb.close();
  const after = await window();

  const baseline = summary([before, after]);
  const underRun = summary(during);
  const verifier = await openDatabase({ databaseUrl: database.url, dataDir: null });
  const verified = await createAuditChainService({ db: verifier.db }).verify();
  await verifier.close();
  const result = {
    date: new Date().toISOString(),
    rows,
    due,
    removed: removed.logs,
    runSeconds: Math.round(runMs / 100) / 10,
    chainWhole: verified.whole,
    baseline,
    duringRun: underRun,
    ratios: {
      listP95: Math.round((underRun.listP95Ms / baseline.listP95Ms) * 100) / 100,
      heartbeatP95: Math.round((underRun.heartbeatP95Ms / baseline.heartbeatP95Ms) * 100) / 100,
      logItems: Math.round((underRun.logItemsPerSecond / baseline.logItemsPerSecond) * 100) / 100,
    },
    loadAtStart,
    loadAtEnd: os.loadavg()[0] ?? 0,
    cpus: os.cpus().length,
  };
  const checks = [
    { target: 'every due row removed, nothing else', met: removed.logs === due },
    { target: 'the chain whole after the run', met: verified.whole },
    { target: `run within ${targets.runSeconds} s`, met: result.runSeconds <= targets.runSeconds },
    {
      target: `device list p95 within ${targets.listP95Ratio}x`,
      met: result.ratios.listP95 <= targets.listP95Ratio,
    },
    {
      target: `heartbeat p95 within ${targets.heartbeatP95Ratio}x`,
      met: result.ratios.heartbeatP95 <= targets.heartbeatP95Ratio,
    },
    {
      target: `log items/s at least ${targets.logItemsRatio}x`,
      met: result.ratios.logItems >= targets.logItemsRatio,
    },
  ];
  console.log(JSON.stringify({ ...result, checks }, null, 2));
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    path.join(root, `bench/results/retention-${rows}-${result.date.slice(0, 10)}.json`),
    `${JSON.stringify({ ...result, checks }, null, 2)}\n`,
  );
  const correctness = checks.slice(0, 2).every((c) => c.met);
  failed = !correctness || (rows >= 10_000_000 && !checks.every((c) => c.met));
} catch (err) {
  console.error(err);
  if (api.current) console.error(api.current.output().slice(-2000));
  failed = true;
} finally {
  await api.current?.kill('SIGTERM');
  await pool.end();
  await database.drop();
}
process.exit(failed ? 1 : 0);
