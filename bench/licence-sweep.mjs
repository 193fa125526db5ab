// `npm run bench:licence-sweep`: the daily recompute of every machine's licence (issue 34: at
// 100,000 machines within 10 s) on real PostgreSQL. A database of its own (BENCH_DB_NAME, default
// bench_licences) gets BENCH_DEVICES machines (default 100,000) straight from generate_series, each
// with a paid subscription whose paid-through date lies from a year ago to a year ahead (a tenth
// with a failed renewal, a hundredth exempt). Then, in BENCH_ROUNDS alternating rounds (default 3):
//   - "every machine changes": the licences are put back to unlicensed first, so the recompute
//     writes every row, an event for each and an audit row for each change of state (the first
//     start after the migration, the worst case);
//   - "nothing changes": the same recompute again right after (the daily sweep on an ordinary day);
//   - the baseline: one UPDATE touching every machine's row (`updated_at = updated_at`), the least a
//     statement that writes every row can cost on this server.
// Prints each round and the medians, with the ratio to the baseline; writes
// bench/results/licence-sweep-<date>.{json,md}. Exit code 1 when the worst case is over 10 s.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { recomputeLicences } from '../apps/api/src/modules/licences/licence-ledger.ts';
import { benchDatabase } from './bench-database.mjs';
import { median } from './stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const machines = Number(process.env.BENCH_DEVICES ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const budgetMs = 10_000;
const { serverUrl, name, url } = benchDatabase('bench_licences');

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
if (!exists) await admin.query(`create database ${name}`);
await admin.end();

const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
const c = new pg.Client({ connectionString: url.toString() });
await c.connect();

const have = Number((await c.query('select count(*) as n from devices')).rows[0].n);
if (have < machines) {
  console.error(`filling ${machines.toLocaleString('en')} machines with their subscriptions...`);
  await c.query(`
    insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address)
    select 'LIC-' || g, 'LIC-SN-' || g, 'Ward ' || (g % 50), 0, 0, 'Amsterdam', 'Netherlands', 'Damrak ' || g
    from generate_series(${have + 1}, ${machines}) g`);
  await c.query(`
    insert into subscriptions (id, full_name, email, machine_serial_number, amount_cents, is_recurring,
      plan_type, status, expired_at, paid_at, provider, device_id, paid_through, renewal_failed_at)
    select 'bench-' || d.id, 'Clinic ' || n, 'clinic' || n || '@example.test', d.serial_number, 9900, true,
      'month', 2, now() + ((n % 730) - 365) * interval '1 day', now() - interval '30 days', 'demo', d.id,
      now() + ((n % 730) - 365) * interval '1 day',
      case when n % 10 = 0 then now() - interval '1 day' end
    from (select id, serial_number, row_number() over (order by id) as n from devices) d
    where not exists (select 1 from subscriptions s where s.device_id = d.id)`);
  await c.query(`
    insert into licence_exemptions (device_id, kind, reason, until)
    select id, 'trial', 'bench', now() + interval '30 days'
    from (select id, row_number() over (order by id) as n from devices) d where n % 100 = 0
    on conflict do nothing`);
  await c.query('vacuum analyze devices, subscriptions, licence_exemptions');
}

const at = new Date();
const recompute = () =>
  recomputeLicences(database.db, { scope: { all: true }, at, graceDays: 14, why: { cause: 'expiry' } });
const timed = async (work) => {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
};
const reset = () =>
  c.query(`update devices set licence_state = 'unlicensed', licence_paid_through = null,
    licence_active_until = null, licence_grace_until = null`);

// The machine is shared: the 1-minute load average at the start and the end says how loaded it was.
const loadAtStart = os.loadavg()[0];
const rows = [];
for (let round = 1; round <= rounds; round++) {
  const steps = {};
  const order = round % 2 ? ['sweep', 'baseline'] : ['baseline', 'sweep'];
  for (const step of order) {
    // Each step starts from a vacuumed table, so no round pays for the dead rows of the one before.
    await c.query('vacuum devices');
    if (step === 'baseline') {
      steps.baseline = (await timed(() => c.query('update devices set updated_at = updated_at'))).ms;
    } else {
      await reset();
      await c.query('vacuum devices');
      const all = await timed(recompute);
      steps.everyMachine = all.ms;
      steps.changed = all.result.length;
      steps.nothingChanges = (await timed(recompute)).ms;
    }
  }
  rows.push(steps);
  console.log(
    `round ${round}: every machine changes ${(steps.everyMachine / 1000).toFixed(2)} s (${steps.changed.toLocaleString('en')} changed), nothing changes ${(steps.nothingChanges / 1000).toFixed(2)} s, baseline update of every row ${(steps.baseline / 1000).toFixed(2)} s`,
  );
}
const med = (key) => median(rows.map((r) => r[key]));
const summary = {
  machines,
  rounds,
  everyMachineMs: Math.round(med('everyMachine')),
  nothingChangesMs: Math.round(med('nothingChanges')),
  baselineMs: Math.round(med('baseline')),
  ratioToBaseline: Number((med('everyMachine') / med('baseline')).toFixed(2)),
  budgetMs,
  loadAverage: { atStart: loadAtStart, atEnd: os.loadavg()[0] },
  rows,
};
console.log(
  `median: every machine changes ${(summary.everyMachineMs / 1000).toFixed(2)} s (budget ${budgetMs / 1000} s), nothing changes ${(summary.nothingChangesMs / 1000).toFixed(2)} s; ${summary.ratioToBaseline}× the baseline`,
);
const day = new Date().toISOString().slice(0, 10);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, `bench/results/licence-sweep-${day}.json`),
  `${JSON.stringify(summary, null, 2)}\n`,
);
writeFileSync(
  path.join(root, `bench/results/licence-sweep-${day}.md`),
  `# Licence sweep, ${day}\n\n${machines.toLocaleString('en')} machines on PostgreSQL, ${rounds} alternating rounds, medians; ${os.cpus().length} cores shared with other work, 1-minute load average ${summary.loadAverage.atStart.toFixed(1)} at the start, ${summary.loadAverage.atEnd.toFixed(1)} at the end.\n\n| case | time | budget |\n| --- | --- | --- |\n| every machine changes (events and audit rows written) | ${(summary.everyMachineMs / 1000).toFixed(2)} s | ${budgetMs / 1000} s |\n| nothing changes (an ordinary day) | ${(summary.nothingChangesMs / 1000).toFixed(2)} s | |\n| baseline: one UPDATE of every row | ${(summary.baselineMs / 1000).toFixed(2)} s | |\n\nRatio of the worst case to the baseline: ${summary.ratioToBaseline}.\n`,
);
await c.end();
await database.close();
process.exit(summary.everyMachineMs > budgetMs ? 1 : 0);
