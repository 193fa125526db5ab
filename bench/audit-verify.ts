// `npm run bench:audit-verify`: `npm run audit:verify` over BENCH_AUDIT_ROWS (10,000,000) audit rows
// on PostgreSQL (issue 38 item 1: within 60 s). Creates a database of its own on BENCH_POSTGRES_URL
// (default postgres://postgres@127.0.0.1:5432), migrates it and fills it through the chain's trigger,
// as the API writes (INSERT ... SELECT generate_series, 500,000 rows a statement; nine access rows to
// one error row). The search and list indexes, which verification never reads, are dropped first so
// the fill takes minutes, not most of an hour; the rows, their heap and the chain's indexes are as in
// production. Then BENCH_ROUNDS (3) rounds of:
//   - the command itself, as its own process (DATABASE_URL): wall time, and the time it reports;
//   - its baseline, in this process: the same ranges of the chain read the same way (in chain order,
//     four at a time, the window's lag) without recomputing a hash: what reading the rows costs.
// And what the trigger costs each audit write: BENCH_INGEST_BATCHES (100) inserts of 500 access rows
// (the audit writer's batch) with the trigger and with it off, alternating, three times.
// Medians of the rounds; writes bench/results/audit-verify-<rows>-<date>.json; exit 1 when the chain
// is not whole, or (at 10,000,000 rows or more) when the command took over 60 s.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { AuditChainVerification } from '@app/contract/audit-chain';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { createBenchDatabase } from './ingest-database.ts';
import { median, mediansOf } from './stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const rows = Number(process.env.BENCH_AUDIT_ROWS ?? 10_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ingestBatches = Number(process.env.BENCH_INGEST_BATCHES ?? 100);
const targetSeconds = 60;
const perStatement = 500_000;

const loadAtStart = os.loadavg()[0] ?? 0;
const database = await createBenchDatabase(serverUrl).catch((err: Error) => {
  console.error(`Cannot create a database on ${serverUrl}: ${err.message}. Is PostgreSQL running?`);
  process.exit(1);
});
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
const q = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows;
const seconds = (ms: number) => Math.round(ms / 10) / 100;

/** Rows as the API writes them: a route, a user of 5,000, an address, a machine of 1,000, some with fields. */
const fill = (table: 'access_logs' | 'error_logs', from: number, to: number) =>
  table === 'access_logs'
    ? `insert into access_logs (created_at, user_id, user_email, resource, location, status_code, duration_ms,
         machine_number, record_kind, record_id, changed_fields)
       select timestamptz '2025-01-01 00:00:00+00' + g * interval '1 second', (100000 + (g / 20) % 5000)::text,
         'user' || ((g / 20) % 5000) || '@example.com',
         (array['GET /api/v1/admin/machine', 'GET /api/v1/admin/machine/:id', 'PUT /api/v1/admin/machine/:id',
                'GET /api/v1/admin/patient/all', 'POST /api/v1/admin/login'])[1 + g % 5],
         '198.51.100.' || (1 + g % 250), 200, 5 + g % 300, 'SC-' || lpad((1 + (g / 50) % 1000)::text, 7, '0'),
         case when g % 5 = 2 then 'device' end, case when g % 5 = 2 then gen_random_uuid()::text end,
         case when g % 5 = 2 then array['status', 'doctorId'] end
       from generate_series(${from}, ${to}) g`
    : `insert into error_logs (created_at, user_id, user_email, resource, function_name, status_code, message, location)
       select timestamptz '2025-01-01 00:00:00+00' + g * interval '10 seconds', (100000 + (g / 20) % 5000)::text,
         'user' || ((g / 20) % 5000) || '@example.com', 'PUT /api/v1/admin/machine/:id', 'updateMachine',
         400 + g % 5, 'Bench error ' || (g % 97), '198.51.100.' || (1 + g % 250)
       from generate_series(${from}, ${to}) g`;

async function fillChain() {
  const kept = [
    'access_logs_pkey',
    'error_logs_pkey',
    'access_logs_chain_seq_idx',
    'error_logs_chain_seq_idx',
  ];
  const drop = await q(
    `select indexname from pg_indexes where tablename in ('access_logs', 'error_logs')
       and indexname not like '%unchained%' and not (indexname = any($1))`,
    [kept],
  );
  for (const { indexname } of drop) await q(`drop index ${indexname as string}`);
  const errorRows = Math.round(rows / 10);
  const started = performance.now();
  for (const [table, total] of [
    ['access_logs', rows - errorRows],
    ['error_logs', errorRows],
  ] as const) {
    for (let from = 1; from <= total; from += perStatement) {
      await q(fill(table, from, Math.min(from + perStatement - 1, total)));
      const done = Math.min(from + perStatement - 1, total);
      console.error(`  ${table}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')}`);
    }
  }
  await q('vacuum analyze access_logs');
  await q('vacuum analyze error_logs');
  return performance.now() - started;
}

/** The command as an operator runs it. */
function runCommand(): Promise<{ wallMs: number; report: AuditChainVerification; status: number | null }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/api/src/modules/audit-chain/audit-verify-cli.ts', '--json'],
      { cwd: root, env: { ...process.env, DATABASE_URL: database.url } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    child.on('error', reject);
    child.on('close', (status) => {
      try {
        resolve({ wallMs: performance.now() - started, report: JSON.parse(out), status });
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

/** The baseline: the same ranges read the same way (rows fetched, four at a time), with no hash recomputed. */
async function readOnly(): Promise<number> {
  const started = performance.now();
  for (const table of ['access_logs', 'error_logs']) {
    const [{ last }] = await q(`select coalesce(max(chain_seq), 0)::int as last from ${table}`);
    const ranges: Array<[number, number]> = [];
    for (let from = 1; from <= (last as number); from += 250_000) ranges.push([from, from + 249_999]);
    let next = 0;
    const worker = async () => {
      while (next < ranges.length) {
        const [from, to] = ranges[next++]!;
        await q(
          // The previous hash compared with the row's own: each row is fetched from the heap, as
          // verification fetches it, but no text is made and nothing is hashed.
          `select count(*) filter (where c.chain_seq >= $1 and c.prev_hash is distinct from c.chain_hash), max(c.chain_seq)
           from (select l.chain_seq, l.chain_hash, lag(l.chain_hash) over w as prev_hash
             from ${table} l where l.chain_seq between $1 - 1 and $2 window w as (order by l.chain_seq)) c`,
          [from, to],
        );
      }
    };
    await Promise.all([1, 2, 3, 4].map(worker));
  }
  return performance.now() - started;
}

/**
 * Each audit write's cost with the trigger (on) and without (off): 500-row inserts, as the writer
 * does, on a database of their own with every index of the logs (the filled one has lost some).
 */
async function ingest(): Promise<{ onMs: number; offMs: number }> {
  const own = await createBenchDatabase(serverUrl);
  const api = await openDatabase({ databaseUrl: own.url, dataDir: null });
  await api.close();
  const client = new pg.Client({ connectionString: own.url });
  await client.connect();
  try {
    const batches = async () => {
      const started = performance.now();
      for (let i = 0; i < ingestBatches; i++)
        await client.query(fill('access_logs', i * 500 + 1, i * 500 + 500));
      return performance.now() - started;
    };
    const on: number[] = [];
    const off: number[] = [];
    for (let round = 0; round < 3; round++) {
      on.push(await batches());
      await client.query('alter table access_logs disable trigger zz_access_logs_chain');
      off.push(await batches());
      await client.query('alter table access_logs enable trigger zz_access_logs_chain');
    }
    return { onMs: median(on), offMs: median(off) };
  } finally {
    await client.end();
    await own.drop();
  }
}

let failed = false;
try {
  // The schema as the API leaves it: every migration.
  const api = await openDatabase({ databaseUrl: database.url, dataDir: null });
  await api.close();
  console.error(
    `database ${database.name}: filling ${rows.toLocaleString('en')} audit rows through the chain's trigger...`,
  );
  const fillMs = await fillChain();
  console.error(`filled in ${seconds(fillMs)} s`);
  const measured: Record<string, number>[] = [];
  let wholeEveryTime = true;
  for (let round = 0; round < rounds; round++) {
    const command = await runCommand();
    const baselineMs = await readOnly();
    wholeEveryTime &&= command.status === 0 && command.report.whole && command.report.rowsChecked === rows;
    measured.push({
      commandSeconds: seconds(command.wallMs),
      verifySeconds: seconds(command.report.tookMs),
      baselineSeconds: seconds(baselineMs),
      verifyOverBaseline: Math.round((command.report.tookMs / baselineMs) * 100) / 100,
    });
    console.error(`round ${round + 1}: ${JSON.stringify(measured.at(-1))}`);
  }
  const write = await ingest();
  const medians = {
    ...mediansOf(measured),
    ingestMsPer500WithChain: Math.round((write.onMs / ingestBatches) * 10) / 10,
    ingestMsPer500WithoutChain: Math.round((write.offMs / ingestBatches) * 10) / 10,
    ingestOnOverOff: Math.round((write.onMs / write.offMs) * 100) / 100,
  };
  const atScale = rows >= 10_000_000;
  const checks = [
    { target: 'every chain whole, every row checked', value: wholeEveryTime ? 1 : 0, met: wholeEveryTime },
    ...(atScale
      ? [
          {
            target: `npm run audit:verify within ${targetSeconds} s`,
            value: medians.commandSeconds!,
            met: medians.commandSeconds! <= targetSeconds,
          },
        ]
      : []),
  ];
  failed = checks.some((c) => !c.met);
  const result = {
    date: new Date().toISOString(),
    rows,
    rounds,
    fillSeconds: seconds(fillMs),
    machine: { cpus: os.cpus().length, loadAtStart, loadAtEnd: os.loadavg()[0] ?? 0 },
    postgres: (await q('select version()'))[0]!.version as string,
    medians,
    checks,
    runs: measured,
  };
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `audit-verify-${rows}-${result.date.slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify({ medians, checks }, null, 2));
  console.log(`written: ${path.relative(root, file)}`);
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  await pool.end();
  await database.drop();
}
process.exit(failed ? 1 : 0);
