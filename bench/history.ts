// `npm run bench:history`: what writing the change history costs an edit (issue 38 Numbers: at most
// 10 % on the p95 of a device edit and of a user edit, history off as the baseline, same run).
// A database of its own on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432), migrated,
// with BENCH_DEVICES (20,000) machines and 50 console users; the API in this process over real HTTP.
// BENCH_ROUNDS (5) rounds, each timing BENCH_EDITS (300) device edits (PUT machine/{id}, the city
// changed) and as many user edits (PUT users/{id}, the last name changed), one at a time after 40
// untimed ones of each, once with the history triggers on and once off (ALTER TABLE ... DISABLE TRIGGER record_history_change), the
// order alternating between rounds. The server's own time per request (Server-Timing). Medians of
// the rounds' p95 ratios; writes bench/results/history-<date>.json; exit 1 over 1.10.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/api/src/app.ts';
import { openBenchApi } from './bench-database.mjs';
import { createBenchDatabase } from './ingest-database.ts';
import { median } from './stats.ts';
import { addServerTiming, round } from './timed-requests.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const deviceCount = Number(process.env.BENCH_DEVICES ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const edits = Number(process.env.BENCH_EDITS ?? 300);
const userCount = 50;
const warmup = 40;
const budget = 1.1;

const loadAtStart = os.loadavg()[0] ?? 0;
const bench = await createBenchDatabase(serverUrl);
const { config, database } = await openBenchApi({
  url: new URL(bench.url),
  tag: 'history',
  offlineMinutes: 15,
});
const app = await buildApp({ config, database, logger: false });
addServerTiming(app);
const address = await app.listen({ port: 0, host: '127.0.0.1' });

type Answer = { status: number; server: number; body: { data?: unknown; msg?: string } };
async function call(method: string, url: string, token: string | null, body?: unknown): Promise<Answer> {
  const res = await fetch(`${address}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const server = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return { status: res.status, server, body: (await res.json()) as Answer['body'] };
}
const expectOk = (answer: Answer, what: string) => {
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.body.msg ?? ''}`);
  return answer;
};

const login = expectOk(
  await call('POST', '/api/v1/admin/login', null, {
    email: config.adminEmail,
    password: config.adminPassword,
  }),
  'sign-in',
);
const token = (login.body.data as { accessToken: string }).accessToken;
/** User edits ask for a fresh step-up (decision 046): taken again before each timed phase. */
const stepUp = async () =>
  expectOk(
    await call('POST', '/api/v1/admin/profile/step-up', token, { password: config.adminPassword }),
    'step-up',
  );

console.error(`filling ${deviceCount.toLocaleString('en')} machines and ${userCount} users...`);
await bench.query(`
  insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address)
  select 'HB-' || lpad(g::text, 7, '0'), 'HBS-' || lpad(g::text, 7, '0'), 'Clinic ' || (g % 500), 52.5, 13.4,
    'Berlin', 'Germany', g || ' Main Street'
  from generate_series(1, ${deviceCount}) g`);
const deviceIds = (await bench.query(`select id, machine_number from devices order by machine_number`)) as {
  id: string;
  machine_number: string;
}[];
const roles = expectOk(
  await call('GET', '/api/v1/admin/roles/all?currentPage=1&pageSize=100', token),
  'roles',
);
const roleId = (roles.body.data as { roles: { _id: string; roleName: string }[] }).roles.find(
  (r) => r.roleName === 'Admin',
)!._id;
await stepUp();
const userOf = (i: number, lastName: string) => ({
  firstName: 'Bench',
  lastName,
  userName: `bench_history_${i}`,
  email: `bench.history.${i}@example.com`,
  phone: '0123456789',
  roleId,
});
const userIds: string[] = [];
for (let i = 0; i < userCount; i++) {
  const made = expectOk(
    await call('POST', '/api/v1/admin/users/', token, {
      ...userOf(i, 'Lovelace'),
      password: 'Bench-Passw0rd-1',
    }),
    'adding a user',
  );
  userIds.push((made.body.data as { _id: string })._id);
}
await bench.query('vacuum analyze');

const historyTriggers = async (on: boolean) => {
  for (const table of ['devices', 'users'])
    await bench.query(`alter table ${table} ${on ? 'enable' : 'disable'} trigger record_history_change`);
};
const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
};

let edit = 0;
/**
 * One phase: `edits` device edits then `edits` user edits, each changing one field; the p95s. The
 * first `warmup` of each are not timed: after the ALTER TABLE every pooled connection builds its
 * cache of the table and compiles the trigger's function again on first use (tens of ms each, a
 * cost a running server pays once per connection, not per edit).
 */
async function phase() {
  await stepUp();
  const device: number[] = [];
  const user: number[] = [];
  for (let i = 0; i < warmup + edits; i++) {
    edit += 1;
    const d = deviceIds[(edit * 7919) % deviceIds.length]!;
    const n = Number(d.machine_number.slice(3));
    const answer = await call('PUT', `/api/v1/admin/machine/${d.id}`, token, {
      machineNumber: d.machine_number,
      serialNumber: `HBS-${d.machine_number.slice(3)}`,
      location: `Clinic ${n % 500}`,
      latitude: 52.5,
      longitude: 13.4,
      city: `City ${edit}`,
      country: 'Germany',
      address: `${n} Main Street`,
    });
    expectOk(answer, 'device edit');
    if (i >= warmup) device.push(answer.server);
  }
  for (let i = 0; i < warmup + edits; i++) {
    edit += 1;
    const at = edit % userIds.length;
    const answer = await call('PUT', `/api/v1/admin/users/${userIds[at]}`, token, userOf(at, `Name ${edit}`));
    expectOk(answer, 'user edit');
    if (i >= warmup) user.push(answer.server);
  }
  return { device: p95(device), user: p95(user) };
}

const results: {
  round: number;
  on: { device: number; user: number };
  off: { device: number; user: number };
}[] = [];
for (let r = 1; r <= rounds; r++) {
  const order = r % 2 ? [true, false] : [false, true];
  const got: Record<string, { device: number; user: number }> = {};
  for (const on of order) {
    await historyTriggers(on);
    got[on ? 'on' : 'off'] = await phase();
  }
  await historyTriggers(true);
  results.push({ round: r, on: got.on!, off: got.off! });
  console.error(
    `round ${r}: device p95 ${round(got.on!.device)} / ${round(got.off!.device)} ms, user p95 ${round(got.on!.user)} / ${round(got.off!.user)} ms (history on / off)`,
  );
}

const deviceRatio = median(results.map((r) => r.on.device / r.off.device));
const userRatio = median(results.map((r) => r.on.user / r.off.user));
const report = {
  bench: 'history',
  ranAt: new Date().toISOString(),
  devices: deviceCount,
  users: userCount,
  rounds,
  editsPerPhase: edits,
  loadAverageAtStart: round(loadAtStart),
  loadAverageAtEnd: round(os.loadavg()[0] ?? 0),
  figures: {
    deviceEditP95Ratio: round(deviceRatio),
    userEditP95Ratio: round(userRatio),
    deviceEditP95OnMs: round(median(results.map((r) => r.on.device))),
    deviceEditP95OffMs: round(median(results.map((r) => r.off.device))),
    userEditP95OnMs: round(median(results.map((r) => r.on.user))),
    userEditP95OffMs: round(median(results.map((r) => r.off.user))),
  },
  target: `p95 with history ÷ without at most ${budget}`,
  rounds_: results,
};
await app.close();
await database.close();
await bench.drop();
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const file = path.join(root, `bench/results/history-${report.ranAt.slice(0, 10)}.json`);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
console.log(
  `history on ÷ off, p95 (median of ${rounds} rounds): device edit ${report.figures.deviceEditP95Ratio}, user edit ${report.figures.userEditP95Ratio} (target ≤ ${budget}); ${path.relative(root, file)}`,
);
process.exit(deviceRatio <= budget && userRatio <= budget ? 0 : 1);
