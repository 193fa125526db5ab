// `npm run bench:clinics`: clinics at scale (issue 39 Numbers: with 2,000 customers, 100,000 machines
// and 10 M treatment and log rows, a clinic user's lists and the portal's figures answer within 50 ms
// p95, and the supplier's lists stay within ±10 % of the same run with row-level security off).
// A database of its own on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432), migrated,
// with BENCH_CUSTOMERS (2,000) clinics holding BENCH_MACHINES (100,000) machines evenly, and
// BENCH_ROWS (10,000,000) rows, half treatments, half audit rows, spread over a year and stamped
// with the clinic that held the machine (decision 087). The API runs in this process over real HTTP,
// connected as a role of its own that is neither a superuser nor the tables' owner (both skip
// row-level security: decision 090's production set-up), a member of console_clinic.
// - Clinic: BENCH_CLINICS (5) clinic managers, each signed in through an invitation; the portal's
//   machines (plain and searched), figures (its default year), usage report and activity, BENCH_CALLS
//   (200) calls per case after 20 untimed ones, the clinics taken in turn. Target: server p95 <= 50 ms.
// - Supplier: the device list (plain, searched), treatment records, access logs and customers, in
//   BENCH_ROUNDS (3) rounds each timing every case with the policies on and off (ALTER TABLE ...
//   DISABLE ROW LEVEL SECURITY on every table under them), the order alternating. Target: the median
//   of the rounds' p95 ratios (on ÷ off) within 0.90..1.10.
// The server's own time per request (Server-Timing). Writes bench/results/clinics-<date>.json; exit 1
// when a target is missed.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { openBenchApi } from './bench-database.mjs';
import { createBenchDatabase } from './ingest-database.ts';
import { median } from './stats.ts';
import { addServerTiming, round, timeCase, timedGet } from './timed-requests.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const customerCount = Number(process.env.BENCH_CUSTOMERS ?? 2_000);
const machineCount = Number(process.env.BENCH_MACHINES ?? 100_000);
const rowCount = Number(process.env.BENCH_ROWS ?? 10_000_000);
const clinicCount = Number(process.env.BENCH_CLINICS ?? 5);
const calls = Number(process.env.BENCH_CALLS ?? 200);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmup = 20;
const targets = { clinicP95Ms: 50, supplierRatioLow: 0.9, supplierRatioHigh: 1.1 };
const perStatement = 1_000_000;
const dayMs = 86_400_000;

const loadAtStart = os.loadavg()[0] ?? 0;
const bench = await createBenchDatabase(serverUrl);
const { config, database: owner } = await openBenchApi({
  url: new URL(bench.url),
  tag: 'clinics',
  offlineMinutes: 15,
});
const pool = new pg.Pool({ connectionString: bench.url, max: 2 });
const q = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows;

console.error(
  `filling ${customerCount.toLocaleString('en')} clinics, ${machineCount.toLocaleString('en')} machines and ${rowCount.toLocaleString('en')} rows into ${bench.name}...`,
);
const yearAgo = new Date(Date.now() - 365 * dayMs);
await q(`insert into customers (name, country, billing_email)
  select 'Bench Clinic ' || lpad(g::text, 5, '0'), (array['France', 'Germany', 'Spain', 'Italy'])[1 + g % 4],
    'billing' || g || '@clinic.example'
  from generate_series(1, ${customerCount}) g`);
await q(`insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address)
  select 'HB-' || lpad(g::text, 7, '0'), 'HBS-' || lpad(g::text, 7, '0'), 'Ward ' || (g % 40), 48.85, 2.35,
    'Paris', 'France', g || ' Rue de Rivoli'
  from generate_series(1, ${machineCount}) g`);
// Machine n goes to clinic n mod customerCount, from 400 days ago: every row below is stamped with it.
await q(
  `with c as (select id, row_number() over (order by name) - 1 as n from customers),
    d as (select id, row_number() over (order by machine_number) - 1 as n from devices)
  insert into machine_assignments (device_id, customer_id, from_at, reason)
  select d.id, c.id, $1::timestamptz, 'bench' from d join c on c.n = d.n % ${customerCount}`,
  [new Date(Date.now() - 400 * dayMs).toISOString()],
);
await q(
  `update devices set customer_id = a.customer_id from machine_assignments a where a.device_id = devices.id`,
);

// The rows themselves bypass the triggers (session_replication_role = replica): the stamp is written
// as the trigger would (the holder is the only one), and the audit chain is not what is measured here.
const half = Math.floor(rowCount / 2);
const fill = async (sqlText: (first: number, last: number) => string, total: number, what: string) => {
  const client = await pool.connect();
  try {
    await client.query('set session_replication_role = replica');
    for (let first = 1; first <= total; first += perStatement) {
      const last = Math.min(first + perStatement - 1, total);
      await client.query(sqlText(first, last), [yearAgo.toISOString()]);
      console.error(`  ${what}: ${last.toLocaleString('en')} of ${total.toLocaleString('en')}`);
    }
  } finally {
    await client.query('set session_replication_role = origin');
    client.release();
  }
};
const machinesArray = `(select array_agg(id order by machine_number) as ids, array_agg(customer_id order by machine_number) as cs,
    array_agg(machine_number order by machine_number) as ns from devices) m`;
const spanSeconds = 364 * 86_400;
await fill(
  (first, last) => `insert into treatment_records (device_id, customer_id, user_name, treatment_device,
      treatment_plan, treatment_start_time, treatment_duration)
    select m.ids[1 + g % ${machineCount}], m.cs[1 + g % ${machineCount}], 'Patient ' || (g % 50000), 'HB-1',
      (array['Knee', 'Back', 'Shoulder'])[1 + g % 3],
      $1::timestamptz + (g::float8 * ${spanSeconds / half}) * interval '1 second', 10 + g % 30
    from generate_series(${first}, ${last}) g, ${machinesArray}`,
  half,
  'treatment records',
);
await fill(
  (first, last) => `insert into access_logs (created_at, user_id, user_email, resource, location, status_code,
      duration_ms, machine_number, customer_id, client_id)
    select $1::timestamptz + (g::float8 * ${spanSeconds / (rowCount - half)}) * interval '1 second',
      (g % 40)::text, 'doctor' || (g % 40) || '@clinic.example',
      (array['Treatment screen', 'Patient list', 'Settings'])[1 + g % 3], '198.51.100.' || (1 + g % 250), 200,
      5 + g % 300, m.ns[1 + g % ${machineCount}], m.cs[1 + g % ${machineCount}], gen_random_uuid()
    from generate_series(${first}, ${last}) g, ${machinesArray}`,
  rowCount - half,
  'access log rows',
);
await q('vacuum analyze');

// The API's own role: the policies apply to it as they do in production (decision 090).
const appRole = `${bench.name}_app`;
await q(`create role ${appRole} login password 'bench' nosuperuser noinherit`);
await q(`grant console_clinic to ${appRole}`);
await q(`grant create on database ${bench.name} to ${appRole}`);
for (const schema of ['public', 'drizzle', 'pgboss']) {
  await q(`grant usage, create on schema ${schema} to ${appRole}`);
  await q(`grant all on all tables in schema ${schema} to ${appRole}`);
  await q(`grant all on all sequences in schema ${schema} to ${appRole}`);
}
const appUrl = Object.assign(new URL(bench.url), { username: appRole, password: 'bench' }).toString();
const database = await openDatabase({ databaseUrl: appUrl, dataDir: null });
const app = await buildApp({ config: { ...config, databaseUrl: appUrl }, database, logger: false });
addServerTiming(app);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const get = timedGet(address);

const post = async (url: string, token: string | null, body: unknown) => {
  const res = await fetch(`${address}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: { accessToken?: string }; msg?: string };
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${json.msg}`);
  return json;
};
const admin = (
  await post('/api/v1/admin/login', null, { email: config.adminEmail, password: config.adminPassword })
).data!.accessToken!;

/** A manager of the clinic, signed in through the invitation mailed to the outbox. */
async function clinicManager(customerId: string, i: number) {
  const email = `manager${i}@bench-clinic.example`;
  await post(`/api/v1/admin/customers/${customerId}/invitations`, admin, { email, role: 'manager' });
  for (let tries = 0; ; tries++) {
    const [mail] = await q(`select text from mail_outbox where "to" = $1 order by created_at desc limit 1`, [
      email,
    ]);
    const token = mail && /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text as string)?.[1];
    if (token) {
      const accepted = await post(`/api/v1/clinic/invitation/${token}`, null, {
        firstName: 'Bench',
        lastName: `Manager ${i}`,
        password: 'Bench-Clinic-Passw0rd',
      });
      return accepted.data!.accessToken!;
    }
    if (tries > 100) throw new Error(`no invitation mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const picked = await q(`select id from customers order by name limit $1 offset 100`, [clinicCount]);
const managers: string[] = [];
for (const [i, c] of picked.entries()) managers.push(await clinicManager(c.id as string, i));

/** Times `url` for the clinics in turn: the calls spread over their tokens. */
async function clinicCase(url: string) {
  let n = 0;
  const call = (_token: string, u: string) => get(managers[n++ % managers.length]!, u);
  return timeCase(call, '', url, { iterations: calls, warmup });
}
const clinicCases: [string, string][] = [
  ['machines, page 1', '/api/v1/clinic/machines?page=1&limit=10'],
  ['machines, searched', '/api/v1/clinic/machines?page=1&limit=10&search=hb-00'],
  ['figures, the default year', '/api/v1/clinic/figures'],
  ['usage report, this month', '/api/v1/clinic/usage'],
  ['activity, page 1', '/api/v1/clinic/activity?page=1&limit=10'],
];
const clinic: Record<string, { serverP50: number; serverP95: number }> = {};
for (const [name, url] of clinicCases) {
  const { serverP50, serverP95 } = await clinicCase(url);
  clinic[name] = { serverP50, serverP95 };
  console.error(`clinic ${name}: p50 ${serverP50} ms, p95 ${serverP95} ms`);
}

const underPolicies = (await q(`select relname from pg_class where relrowsecurity order by relname`)).map(
  (r) => r.relname as string,
);
const policies = async (on: boolean) => {
  for (const table of underPolicies)
    await q(`alter table ${table} ${on ? 'enable' : 'disable'} row level security`);
};
const supplierCases: [string, string][] = [
  ['device list, page 1', '/api/v1/admin/machine?page=1&limit=10'],
  ['device list, searched', '/api/v1/admin/machine?page=1&limit=10&search=ward%2012'],
  ['treatment records, page 1', '/api/v1/admin/treatement-records/all?page=1&limit=10'],
  ['access logs, page 1', '/api/v1/admin/access-logs/all?limit=25'],
  ['customers, page 1', '/api/v1/admin/customers?page=1&limit=10'],
];
const supplierRounds: Record<string, { on: number; off: number }>[] = [];
for (let r = 1; r <= rounds; r++) {
  const got: Record<string, { on: number; off: number }> = {};
  for (const on of r % 2 ? [true, false] : [false, true]) {
    await policies(on);
    for (const [name, url] of supplierCases) {
      const { serverP95 } = await timeCase(get, admin, url, { iterations: calls, warmup });
      got[name] = { ...(got[name] ?? { on: NaN, off: NaN }), [on ? 'on' : 'off']: serverP95 };
    }
  }
  await policies(true);
  supplierRounds.push(got);
  console.error(
    `round ${r}: ${Object.entries(got)
      .map(([name, v]) => `${name} ${v.on} / ${v.off} ms`)
      .join(', ')} (policies on / off)`,
  );
}
const supplier = Object.fromEntries(
  supplierCases.map(([name]) => [
    name,
    {
      p95OnMs: round(median(supplierRounds.map((r) => r[name]!.on))),
      p95OffMs: round(median(supplierRounds.map((r) => r[name]!.off))),
      ratio: round(median(supplierRounds.map((r) => r[name]!.on / r[name]!.off))),
    },
  ]),
);

const checks = [
  ...Object.entries(clinic).map(([name, v]) => ({
    target: `clinic ${name}: p95 <= ${targets.clinicP95Ms} ms`,
    met: v.serverP95 <= targets.clinicP95Ms,
  })),
  ...Object.entries(supplier).map(([name, v]) => ({
    target: `supplier ${name}: p95 with policies ÷ without within ${targets.supplierRatioLow}..${targets.supplierRatioHigh}`,
    met: v.ratio >= targets.supplierRatioLow && v.ratio <= targets.supplierRatioHigh,
  })),
];
const report = {
  bench: 'clinics',
  ranAt: new Date().toISOString(),
  customers: customerCount,
  machines: machineCount,
  rows: rowCount,
  tablesUnderPolicies: underPolicies,
  calls,
  rounds,
  loadAverageAtStart: round(loadAtStart),
  loadAverageAtEnd: round(os.loadavg()[0] ?? 0),
  cpus: os.cpus().length,
  clinic,
  supplier,
  supplierRounds,
  checks,
};
await app.close();
await database.close();
await owner.close();
await pool.end();
await bench.drop();
const server = new pg.Client({
  connectionString: Object.assign(new URL(serverUrl), { pathname: '/postgres' }).toString(),
});
await server.connect();
await server.query(`drop role if exists ${appRole}`);
await server.end();
const dir = path.join(root, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `clinics-${new Date().toISOString().slice(0, 10)}.json`);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify({ clinic, supplier, checks }, null, 2));
console.error(`written to ${path.relative(root, file)}`);
process.exit(checks.every((c) => c.met) ? 0 : 1);
