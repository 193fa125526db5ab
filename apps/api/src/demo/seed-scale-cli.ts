// `npm run seed:scale -- --devices 100000 --logs 5000000`: fills the configured database with bulk
// benchmark data. Rows are made by the database itself (generate_series) in batches, each batch in
// one transaction together with its progress row, so an interrupted run resumes where it stopped.
// Everything is deterministic: row n is always the same row. Meant for PostgreSQL (DATABASE_URL).
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase, type Db } from '../db/client.ts';
import { rowsOf } from '../db/rows-of.ts';
import { insertDevices, insertLogs } from './seed-scale-rows.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '100000' },
    logs: { type: 'string', default: '5000000' },
    'batch-devices': { type: 'string', default: '10000' },
    'batch-logs': { type: 'string', default: '250000' },
  },
});
const count = (name: string, value: string | undefined) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`--${name} must be a whole number, got ${value}`);
  return n;
};

/** A progress line on stderr: bar, count, rate and time left. */
function progress(label: string, target: number, startDone: number, unit = 'rows') {
  const started = Date.now();
  let last = 0;
  const fmt = (s: number) =>
    Number.isFinite(s) ? `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}` : '--:--';
  return (done: number, final = false) => {
    const now = Date.now();
    if (!final && now - last < 250) return;
    last = now;
    const elapsed = (now - started) / 1000;
    const rate = elapsed > 0 ? (done - startDone) / elapsed : 0;
    const share = target === 0 ? 1 : done / target;
    const width = 28;
    const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '-');
    const eta = rate > 0 ? (target - done) / rate : Infinity;
    const line = `${label.padEnd(12)} [${bar}] ${done.toLocaleString('en')}/${target.toLocaleString('en')}  ${rate >= 10 ? Math.round(rate).toLocaleString('en') : rate.toFixed(2)} ${unit}/s  ${final ? `done in ${fmt(elapsed)}` : `ETA ${fmt(eta)}`}`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
    if (final && process.stderr.isTTY) process.stderr.write('\n');
  };
}

/**
 * A big load goes faster without the logs' secondary indexes: they are dropped first (their
 * definitions kept in a table, so an interrupted run still restores them) and rebuilt at the end.
 */
async function dropLogIndexes(db: Db) {
  await db.execute(
    sql`create table if not exists seed_scale_indexes (name text primary key, def text not null)`,
  );
  const saved = rowsOf<{ name: string }>(await db.execute(sql`select name from seed_scale_indexes`));
  if (saved.length > 0) return;
  const indexes = rowsOf<{ indexname: string; indexdef: string }>(
    await db.execute(
      sql`select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('access_logs', 'error_logs') and indexname not like '%_pkey'`,
    ),
  );
  await db.transaction(async (tx) => {
    for (const index of indexes) {
      await tx.execute(
        sql`insert into seed_scale_indexes (name, def) values (${index.indexname}, ${index.indexdef})`,
      );
      await tx.execute(sql.raw(`drop index if exists "${index.indexname}"`));
    }
  });
}

async function restoreLogIndexes(db: Db) {
  await db.execute(
    sql`create table if not exists seed_scale_indexes (name text primary key, def text not null)`,
  );
  const saved = rowsOf<{ name: string; def: string }>(
    await db.execute(sql`select name, def from seed_scale_indexes order by name`),
  );
  const show = progress('indexes', saved.length, 0, 'indexes');
  let n = 0;
  for (const index of saved) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      await tx.execute(
        sql.raw(index.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS ')),
      );
      await tx.execute(sql`delete from seed_scale_indexes where name = ${index.name}`);
    });
    show(++n, n === saved.length);
  }
}

async function run() {
  const config = loadConfig(process.env, { takesPayments: false });
  const targets = { devices: count('devices', values.devices), logs: count('logs', values.logs) };
  const batch = {
    devices: count('batch-devices', values['batch-devices']) || 1,
    logs: count('batch-logs', values['batch-logs']) || 1,
  };
  if (!config.databaseUrl)
    console.warn(
      'No DATABASE_URL: filling the embedded database (slow; the benchmarks are meant for PostgreSQL).',
    );
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const db = database.db;
  try {
    await db.execute(
      sql`create table if not exists seed_scale_progress (kind text primary key, done bigint not null)`,
    );
    await db.execute(
      sql`insert into seed_scale_progress (kind, done) values ('devices', 0), ('logs', 0) on conflict do nothing`,
    );
    const done = async (kind: string) =>
      Number(
        rowsOf<{ done: string }>(
          await db.execute(sql`select done from seed_scale_progress where kind = ${kind}`),
        )[0]!.done,
      );

    let devicesDone = await done('devices');
    const showDevices = progress('devices', targets.devices, devicesDone);
    while (devicesDone < targets.devices) {
      const to = Math.min(targets.devices, devicesDone + batch.devices);
      await db.transaction(async (tx) => {
        await insertDevices(tx as unknown as Db, devicesDone + 1, to);
        await tx.execute(sql`update seed_scale_progress set done = ${to} where kind = 'devices'`);
      });
      devicesDone = to;
      showDevices(devicesDone);
    }
    showDevices(devicesDone, true);

    let logsDone = await done('logs');
    if (targets.logs - logsDone >= 500_000) await dropLogIndexes(db);
    const showLogs = progress('logs', targets.logs, logsDone);
    while (logsDone < targets.logs) {
      const to = Math.min(targets.logs, logsDone + batch.logs);
      await db.transaction(async (tx) => {
        await insertLogs(tx as unknown as Db, logsDone + 1, to, Math.max(devicesDone, 0));
        await tx.execute(sql`update seed_scale_progress set done = ${to} where kind = 'logs'`);
      });
      logsDone = to;
      showLogs(logsDone);
    }
    showLogs(logsDone, true);
    await restoreLogIndexes(db);

    process.stderr.write('Updating planner statistics and the visibility map (vacuum analyze)...\n');
    for (const table of ['devices', 'access_logs', 'error_logs', 'log_counters'])
      await db.execute(sql.raw(`vacuum analyze ${table}`));
    console.log(
      `Done: ${devicesDone.toLocaleString('en')} bulk devices and ${logsDone.toLocaleString('en')} logs.`,
    );
  } finally {
    await database.close();
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
});
