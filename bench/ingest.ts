// `npm run bench:ingest`: the device API under a fleet's load, on PostgreSQL (issue 13 item 8).
// Creates a fresh database on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432), starts
// the API as its own process on it, provisions BENCH_MACHINES (1,000) machines through the admin
// API, then, BENCH_ROUNDS (3) times for BENCH_SECONDS (10) each: heartbeats as fast as answered and
// at 1,000/s, access/error logs in 100-item batches, treatment records (no images) in 100-item
// batches. Then re-sends batches with the same ids (twice at once) and counts rows in the database:
// duplicates must be 0. Medians of the rounds against the targets; a bare HTTP server answering the
// same requests is the baseline. Writes bench/results/ingest-<date>.{json,md}; exit 1 when a
// target is missed or a duplicate is found.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiPaths } from '@app/contract/paths';
import { apiEnv, hardeningAdmin, startApi } from '../apps/api/src/hardening/api-process.ts';
import { AdminClient } from '../tools/fleet-simulator/admin-client.ts';
import { createBenchDatabase, freePort } from './ingest-database.ts';
import { startBareServer, writeResults } from './ingest-report.ts';
import { provisionFleet, type BenchMachine } from './ingest-provision.ts';
import { median } from './stats.ts';
import {
  closedLoop,
  createLoadClient,
  openLoop,
  percentiles,
  type Reply,
  type Sample,
} from './ingest-load.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const machineCount = Number(process.env.BENCH_MACHINES ?? 1000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const durationMs = seconds * 1000;
const logMachines = Math.min(100, machineCount);
const treatmentMachines = Math.min(20, machineCount);
const targets = {
  heartbeatsPerSecond: 1000,
  logItemsPerSecond: 5000,
  treatmentsPerSecond: 300,
  heartbeatP99Ms: 50,
};

const loadAtStart = os.loadavg()[0] ?? 0;
let database: Awaited<ReturnType<typeof createBenchDatabase>>;
try {
  database = await createBenchDatabase(serverUrl);
} catch (err) {
  console.error(
    `Cannot create a database on ${serverUrl}: ${(err as Error).message}. Is PostgreSQL running?`,
  );
  process.exit(1);
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
const api = await startApi(
  apiEnv({
    port: await freePort(),
    dataDir,
    // The whole fleet enrols from this one address: lift the anonymous limit (decision 029).
    env: {
      DATABASE_URL: database.url,
      PAYMENT_PROVIDER: 'demo',
      MAIL_TRANSPORT: 'outbox',
      DEMO_DATA: '0',
      ANON_RATE_PER_MINUTE: '1000000',
    },
  }),
);
const bare = await startBareServer(await freePort());
let failed = false;
try {
  console.error(
    `API on ${api.url} (database ${database.name}); provisioning ${machineCount} machines through the admin API...`,
  );
  const admin = new AdminClient({ baseUrl: api.url }, hardeningAdmin.email, hardeningAdmin.password);
  const provisionStart = performance.now();
  const fleet = await provisionFleet(admin, api.url, machineCount, treatmentMachines);
  const provisionSeconds = Math.round((performance.now() - provisionStart) / 100) / 10;
  console.error(`provisioned in ${provisionSeconds} s`);

  const client = createLoadClient(api.url, 64);
  const bareClient = createLoadClient(bare.url, 64);
  const heartbeatBody = JSON.stringify({
    versionCode: 42,
    versionName: '4.2.0',
    latitude: 52.52,
    longitude: 13.405,
  });
  const heartbeat = (c: typeof client) => (n: number) =>
    c.post(apiPaths.appHeartbeat, fleet.machines[n % fleet.machines.length]!.device, heartbeatBody);
  const kept: { path: string; headers: Record<string, string>; body: string; items: number }[] = [];
  const firstAccepted = { logs: 0, treatments: 0 };
  const allAccepted = (size: number) => (r: Reply) =>
    r.status === 200 && JSON.parse(r.body).data.accepted === size;

  const batchOf = (machine: BenchMachine, kind: 'access' | 'error' | 'treatment') => {
    const at = Date.now();
    const items = Array.from({ length: 100 }, (_, i) => {
      const time = new Date(at - (i + 1) * 1000).toISOString();
      const id = crypto.randomUUID();
      if (kind === 'access') return { id, resource: 'app/treatment/start', location: '10.0.0.7', time };
      if (kind === 'error')
        return { id, resource: 'app/sync', functionName: 'SyncWorker.flush', utcTime: time };
      return {
        id,
        patientId: machine.patientId!,
        treatmentDevice: 'ESWT Pro 2',
        treatmentPlan: 'Knee, 3 sessions',
        treatmentStartTime: new Date(at - 20 * 60_000).toISOString(),
        treatmentEndTime: time,
        treatmentDuration: 20,
        treatmentEnergy: 12.5,
        totalEnergyOutput: 25_000,
      };
    });
    return JSON.stringify({ items });
  };

  const roundResults: Record<string, number>[] = [];
  for (let round = 1; round <= rounds; round++) {
    const r: Record<string, number> = {};
    const summarise = (name: string, s: Sample, perItem = 1) => {
      const p = percentiles(s.latencies);
      r[`${name}PerSecond`] = Math.round(((s.count - s.failures) * perItem * 1000) / s.elapsedMs);
      r[`${name}P50Ms`] = p.p50;
      r[`${name}P95Ms`] = p.p95;
      r[`${name}P99Ms`] = p.p99;
      r[`${name}Failures`] = s.failures;
      if (s.failures > 0)
        console.error(`  ${name}: ${s.failures} failed, statuses ${JSON.stringify(s.statuses)}`);
    };
    summarise('bareHeartbeats', await closedLoop(32, durationMs, heartbeat(bareClient)));
    summarise('heartbeats', await closedLoop(32, durationMs, heartbeat(client)));
    summarise('heartbeatsAt1000', await openLoop(1000, durationMs, heartbeat(client)));

    const logs = await closedLoop(
      8,
      durationMs,
      (n) => {
        const machine = fleet.machines[n % logMachines]!;
        const kind = n % 2 === 0 ? 'access' : 'error';
        const path = kind === 'access' ? apiPaths.appAccessLogs : apiPaths.appErrorLogs;
        const body = batchOf(machine, kind);
        if (kept.length < 20 * round) kept.push({ path, headers: machine.device, body, items: 100 });
        return client.post(path, machine.device, body);
      },
      allAccepted(100),
    );
    summarise('logItems', logs, 100);
    firstAccepted.logs += (logs.count - logs.failures) * 100;

    const treatments = await closedLoop(
      4,
      durationMs,
      (n) => {
        const machine = fleet.machines[n % treatmentMachines]!;
        const body = batchOf(machine, 'treatment');
        if (kept.length < 25 * round)
          kept.push({ path: apiPaths.appTreatments, headers: machine.person!, body, items: 100 });
        return client.post(apiPaths.appTreatments, machine.person!, body);
      },
      allAccepted(100),
    );
    summarise('treatments', treatments, 100);
    firstAccepted.treatments += (treatments.count - treatments.failures) * 100;
    console.error(`round ${round}: ${JSON.stringify(r)}`);
    roundResults.push(r);
  }

  // Retries: every kept batch sent twice more, at the same time, with the same ids.
  let retryAnswersAccepted = 0;
  let retryAnswers = 0;
  await Promise.all(
    kept.flatMap((b) =>
      [0, 1].map(async () => {
        const reply = await client.post(b.path, b.headers, b.body);
        retryAnswers += b.items;
        if (reply.status === 200) retryAnswersAccepted += JSON.parse(reply.body).data.accepted as number;
      }),
    ),
  );
  const [rows] = await database.query(
    `select
       (select count(*) from access_logs where client_id is not null)
         + (select count(*) from error_logs where client_id is not null) as log_rows,
       (select count(distinct (machine_number, client_id)) from access_logs where client_id is not null)
         + (select count(distinct (machine_number, client_id)) from error_logs where client_id is not null) as log_ids,
       (select count(*) from treatment_records where client_id is not null) as treatment_rows,
       (select count(distinct (device_id, client_id)) from treatment_records where client_id is not null) as treatment_ids`,
  );
  const n = (v: unknown) => Number(v);
  const duplicates =
    n(rows.log_rows) -
    n(rows.log_ids) +
    (n(rows.treatment_rows) - n(rows.treatment_ids)) +
    Math.max(0, n(rows.log_rows) - firstAccepted.logs) +
    Math.max(0, n(rows.treatment_rows) - firstAccepted.treatments);
  const lost =
    Math.max(0, firstAccepted.logs - n(rows.log_rows)) +
    Math.max(0, firstAccepted.treatments - n(rows.treatment_rows));

  const med = (key: string) => median(roundResults.map((r) => r[key]!));
  const figures = Object.fromEntries(Object.keys(roundResults[0]!).map((k) => [k, med(k)]));
  const checks = [
    {
      target: `heartbeats/s (closed loop, ${machineCount} machines) >= ${targets.heartbeatsPerSecond}`,
      value: figures.heartbeatsPerSecond!,
      met: figures.heartbeatsPerSecond! >= targets.heartbeatsPerSecond,
    },
    {
      target: `log items/s (100-item batches) >= ${targets.logItemsPerSecond}`,
      value: figures.logItemsPerSecond!,
      met: figures.logItemsPerSecond! >= targets.logItemsPerSecond,
    },
    {
      target: `treatment records/s (100-item batches, no images) >= ${targets.treatmentsPerSecond}`,
      value: figures.treatmentsPerSecond!,
      met: figures.treatmentsPerSecond! >= targets.treatmentsPerSecond,
    },
    {
      target: `heartbeat p99 at 1,000/s from ${machineCount} machines <= ${targets.heartbeatP99Ms} ms`,
      value: figures.heartbeatsAt1000P99Ms!,
      met: figures.heartbeatsAt1000P99Ms! <= targets.heartbeatP99Ms,
    },
    {
      target: 'duplicates after retries = 0 (counted in the database)',
      value: duplicates,
      met: duplicates === 0 && lost === 0,
    },
  ];
  failed = checks.some((c) => !c.met);
  const result = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? 'unknown',
      node: process.version,
      // Other work on the machine skews every figure: the 1-minute load average before and after says how much.
      loadAverage: { atStart: loadAtStart, atEnd: os.loadavg()[0] },
    },
    settings: { machines: machineCount, rounds, seconds, logMachines, treatmentMachines, provisionSeconds },
    medians: figures,
    rounds: roundResults,
    retries: {
      batches: kept.length * 2,
      items: retryAnswers,
      answeredAccepted: retryAnswersAccepted,
      dbRows: rows,
      firstAccepted,
      duplicates,
      lost,
    },
    baselineRatio:
      Math.round((figures.heartbeatsPerSecond! / figures.bareHeartbeatsPerSecond!) * 1000) / 1000,
    checks,
  };
  writeResults(
    path.join(root, 'bench/results'),
    `\`npm run bench:ingest\` on ${os.cpus().length} cores (API, PostgreSQL and the load generator share them); median of ${rounds} rounds of ${seconds} s; ${machineCount} machines; load average ${loadAtStart.toFixed(1)} at start.`,
    result,
  );
  for (const c of checks) console.log(`${c.met ? 'met    ' : 'NOT MET'}  ${c.target}: ${c.value}`);
  console.log(
    `heartbeat p50/p95/p99 ${figures.heartbeatsP50Ms}/${figures.heartbeatsP95Ms}/${figures.heartbeatsP99Ms} ms (closed loop, 32 in flight); ` +
      `at 1,000/s ${figures.heartbeatsAt1000P50Ms}/${figures.heartbeatsAt1000P95Ms}/${figures.heartbeatsAt1000P99Ms} ms; ` +
      `100-item log batch ${figures.logItemsP50Ms}/${figures.logItemsP95Ms}/${figures.logItemsP99Ms} ms; ` +
      `bare server ${figures.bareHeartbeatsPerSecond}/s (API at ${result.baselineRatio} of it)`,
  );
  client.close();
  bareClient.close();
} catch (err) {
  failed = true;
  console.error(err);
  console.error(api.output().slice(-3000));
} finally {
  bare.child.kill('SIGTERM');
  await api.kill('SIGTERM');
  await database.drop().catch(() => {});
}
process.exit(failed ? 1 : 0);
