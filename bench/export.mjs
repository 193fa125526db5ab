// `npm run bench:export`: the device list's CSV export (GET /api/v1/admin/machine-export) at
// 1,000,000 machines on real PostgreSQL, in a database of its own (BENCH_DB_NAME, default
// bench_export, filled once and kept). The API runs in this process; the client drains the stream
// over HTTP while the process's memory is sampled every 20 ms. Memory is bounded when exporting
// 1,000,000 rows costs about what exporting 10,000 does: both peak RSS growths are reported from the
// same run (median of BENCH_ROUNDS, default 3), with their ratio against a 4 MB floor (below it the
// figure is the garbage collector's timing, not the export), and the 1,000,000-row growth must stay
// under 64 MB (budget). Each export's rows are counted. Written to bench/results/export-<date>.{json,md}.
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { benchDatabase, openBenchApi } from './bench-database.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { serverUrl, name: dbName, url: dbUrl } = benchDatabase('bench_export');
const big = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const small = 10_000;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
// Below this, RSS growth is the collector's timing: the ratio's floor.
const noiseFloorMb = 4;
const growthBudgetMb = 64;

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount;
if (!exists) await admin.query(`create database ${dbName}`);
await admin.end();
const { config, database } = await openBenchApi({ url: dbUrl, tag: 'export', offlineMinutes: 15 });
const c = new pg.Client({ connectionString: dbUrl.toString() });
await c.connect();
const have = Number((await c.query('select count(*) as n from devices')).rows[0].n);
if (have < big) {
  console.log(`devices: adding ${(big - have).toLocaleString('en')} (once; the database is kept) ...`);
  // The small export's rows are the ones in 'Country 0'.
  await c.query(`
    insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address, status)
    select 'EXP-' || lpad(g::text, 7, '0'), 'EXPS-' || lpad(g::text, 7, '0'), 'Clinic ' || (g % 500), 10, 20,
      'City ' || (g % 250), 'Country ' || case when g <= ${small} then 0 else 1 + g % 40 end, g || ' Main Street',
      1 + g % 2
    from generate_series(${have + 1}::bigint, ${big}::bigint) g`);
  await c.query('vacuum analyze devices');
}
await c.end();

const app = await buildApp({ config, database, logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const login = await fetch(`${address}/api/v1/admin/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: config.adminEmail, password: config.adminPassword }),
});
const headers = { authorization: `Bearer ${(await login.json()).data.accessToken}` };
const columns =
  'machineNumber,serialNumber,location,status,subscriptionStatus,city,country,address,createdAt';

const mb = (bytes) => bytes / 1024 / 1024;
/** One export drained over HTTP: its rows, bytes, seconds and the process's peak RSS growth. */
async function exportOnce(query) {
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  // node:http, not fetch: its stream holds the server back while this client is busy (fetch's body
  // takes in what the socket brings, which would count the client's buffer as the server's memory).
  const res = await new Promise((resolve, reject) =>
    http
      .get(`${address}/api/v1/admin/machine-export?${query}&columns=${columns}`, { headers }, resolve)
      .on('error', reject),
  );
  if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res) {
    bytes += chunk.byteLength;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { rows: lines - 1, megabytes: mb(bytes), seconds, growthMb: mb(peak - before) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const runs = [];
for (let i = 0; i < rounds; i++) {
  const s = await exportOnce('country=Country%200');
  const b = await exportOnce('');
  if (s.rows !== small || b.rows < big) throw new Error(`rows: ${s.rows} and ${b.rows}`);
  runs.push({
    small: s,
    big: b,
    ratio: Math.max(b.growthMb, noiseFloorMb) / Math.max(s.growthMb, noiseFloorMb),
  });
  console.log(
    `round ${i + 1}: ${small.toLocaleString('en')} rows +${round(s.growthMb, 1)} MB; ${b.rows.toLocaleString('en')} rows (${round(b.megabytes, 0)} MB of CSV, ${round(b.seconds, 1)} s) +${round(b.growthMb, 1)} MB`,
  );
}
await app.close();
await database.close();

const result = {
  date: new Date().toISOString(),
  cpus: os.cpus().length,
  rows: big,
  rounds,
  smallGrowthMb: round(median(runs.map((r) => r.small.growthMb)), 1),
  bigGrowthMb: round(median(runs.map((r) => r.big.growthMb)), 1),
  ratio: round(median(runs.map((r) => r.ratio))),
  bigSeconds: round(median(runs.map((r) => r.big.seconds)), 1),
  rowsPerSecond: Math.round(big / median(runs.map((r) => r.big.seconds))),
  runs,
};
result.ok = result.bigGrowthMb < growthBudgetMb;
console.log(
  `\nmedian of ${rounds}: ${big.toLocaleString('en')} rows +${result.bigGrowthMb} MB vs ${small.toLocaleString('en')} rows +${result.smallGrowthMb} MB: ratio ${result.ratio} (floor ${noiseFloorMb} MB); budget < ${growthBudgetMb} MB for the whole fleet; ${result.rowsPerSecond.toLocaleString('en')} rows/s`,
);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const stem = path.join(root, 'bench/results', `export-${result.date.slice(0, 10)}`);
writeFileSync(`${stem}.json`, JSON.stringify(result, null, 2) + '\n');
writeFileSync(
  `${stem}.md`,
  [
    `# Export benchmark, ${result.date.slice(0, 10)}`,
    '',
    `The device list's CSV export on PostgreSQL, ${rounds} rounds, median; RSS growth of the API process while the export streams.`,
    '',
    '| export | rows | RSS growth (MB) |',
    '| --- | ---: | ---: |',
    `| one country | ${small.toLocaleString('en')} | ${result.smallGrowthMb} |`,
    `| the whole fleet | ${big.toLocaleString('en')} | ${result.bigGrowthMb} |`,
    '',
    `Ratio ${result.ratio} (each floored at ${noiseFloorMb} MB); budget: under ${growthBudgetMb} MB for the whole fleet. ${result.bigSeconds} s for the whole fleet, ${result.rowsPerSecond.toLocaleString('en')} rows/s.`,
    '',
  ].join('\n'),
);
process.exit(result.ok ? 0 : 1);
