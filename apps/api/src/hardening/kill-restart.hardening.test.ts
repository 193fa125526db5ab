// kill -9 the real API server during a stream of concurrent writes (devices, users, subscription
// links), restart it on the same data, and check that every write it acknowledged is there with
// every field, and that nothing is half there. Once on PostgreSQL (a fresh database) and once on the
// embedded PGlite data directory, the default.
//
// KILL_ROUNDS (default 2) and KILL_ROUNDS_PGLITE (default 1: each PGlite restart costs some 10-20 s
// of WASM start-up on 2 cores) set the kills per database; KILL_AFTER (default 24) the acknowledged
// writes per round before the kill.
import { afterAll, describe, expect } from 'vitest';
import { call, login, startApi, stepUp, type ApiProcess } from './api-process.ts';
import { itOnEachDatabase, type SqlQuery } from './kill-database.ts';
import { writeHardeningResult, type Figure } from './result-file.ts';
import { checkAcked, startWriteStream, type StreamTally } from './write-stream.ts';

const rounds = {
  PostgreSQL: Number(process.env.KILL_ROUNDS ?? 2),
  PGlite: Number(process.env.KILL_ROUNDS_PGLITE ?? 1),
};
const killAfter = Number(process.env.KILL_AFTER ?? 24);

const figures: Figure[] = [];
const notes: string[] = [];
let allPassed = true;

afterAll(() => {
  writeHardeningResult({
    suite: 'faults-kill',
    title: 'Faults: kill -9 during writes',
    passed: allPassed,
    database: 'PostgreSQL and PGlite (embedded)',
    figures,
    notes: [
      'The real server (node on the compiled apps/api/dist/server.js, as npm start runs it) takes concurrent creates of devices, users and subscription links; SIGKILL lands while requests are in flight; the server restarts on the same data.',
      'Checked after the last restart: every acknowledged (2xx) write reads back with every field it was sent; acknowledged users sign in with their password; SQL invariants hold (device count row equals count(*), every user has its role and an argon2id hash, every subscription has its link mail in the outbox).',
      "A write's access-log row is in the database before its answer is sent (lib/audit.ts: writes and record views land first, other reads go in the next batch), so every acknowledged create must have its row after the kill.",
      ...notes,
    ],
  });
});

/** The SQL invariants: what "half there" would look like for each kind of write. */
async function invariantViolations(query: SqlQuery): Promise<string[]> {
  const checks: Array<[string, string]> = [
    [
      'device count row differs from count(*)',
      `select 1 from table_row_counts where table_name = 'devices' and n <> (select count(*) from devices)`,
    ],
    [
      'user without its role',
      `select u.id from users u left join roles r on r.id = u.role_id where r.id is null`,
    ],
    [
      'user without a complete argon2id hash',
      `select id from users where password_hash is null or password_hash not like '$argon2id$%' or length(password_hash) < 80`,
    ],
    [
      'subscription without its link mail',
      `select s.id from subscriptions s where not exists (select 1 from mail_outbox m where m.to = s.email and m.text like '%/plans/' || s.id || '%')`,
    ],
  ];
  const out: string[] = [];
  for (const [name, q] of checks) {
    const rows = await query(q);
    if (rows.length) out.push(`${name}: ${rows.length} row(s)`);
  }
  return out;
}

async function counts(query: SqlQuery) {
  const [row] = await query(
    `select (select count(*) from devices)::int as devices, (select count(*) from users)::int as users, (select count(*) from subscriptions)::int as subscriptions,
       (select count(*) from access_logs where status_code between 200 and 299
          and resource in ('POST /api/v1/admin/machine/add', 'POST /api/v1/admin/users/', 'POST /api/v1/admin/subscrption/add'))::int as audited`,
  );
  return row as Counts;
}

type Counts = { devices: number; users: number; subscriptions: number; audited: number };

async function adminRoleId(url: string, token: string): Promise<string> {
  const res = await call(url, token, 'GET', '/api/v1/admin/roles/all');
  const roles = (res.json?.data as { roles: Array<{ _id: string; type: string }> }).roles;
  return roles.find((r) => r.type === 'admin')!._id;
}

/**
 * Start, stream, kill -9, restart: `rounds` times; then check every acknowledged write. Returns the
 * tally; `env` points the server at its database.
 */
async function killRounds(label: keyof typeof rounds, env: Record<string, string>) {
  const tally: StreamTally = { acked: [], unanswered: 0, unexpected: [] };
  let api: ApiProcess = await startApi(env);
  const restartMs: number[] = [];
  try {
    for (let round = 0; round < rounds[label]; round++) {
      // The stream creates admins: a step-up first (decision 046), good for the round's minute.
      const token = await stepUp(api.url, await login(api.url));
      const roleId = await adminRoleId(api.url, token);
      const before = tally.acked.length;
      const stream = startWriteStream({ url: api.url, token, adminRoleId: roleId, workers: 6, tally });
      const deadline = Date.now() + 60_000;
      while (
        tally.acked.length - before < killAfter &&
        Date.now() < deadline &&
        tally.unexpected.length === 0
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Mid-stream: six requests are in flight at this moment.
      await api.kill('SIGKILL');
      await stream.stop();
      const started = Date.now();
      api = await startApi(env);
      restartMs.push(Date.now() - started);
    }
    expect(tally.unexpected, `${label}: answers that were neither 2xx nor a lost connection`).toEqual([]);

    const token = await login(api.url);
    const problems: string[] = [];
    for (const w of tally.acked) {
      const wrong = await checkAcked(api.url, token, w);
      if (wrong) problems.push(wrong);
    }
    // The stored password hash of acknowledged users is whole: they can sign in.
    const users = tally.acked.filter((w) => w.kind === 'user').slice(-3);
    for (const u of users) {
      const res = await fetch(`${api.url}/api/v1/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: u.body.email, password: u.body.password }),
      });
      if (res.status !== 200) problems.push(`user ${u.id}: sign-in answered ${res.status}`);
    }
    return { tally, problems, restartMs, api };
  } catch (error) {
    await api.kill('SIGKILL');
    throw error;
  }
}

describe('kill -9 during a stream of writes', () => {
  itOnEachDatabase(
    'loses no acknowledged write and leaves nothing half written',
    { name: 'kill', ports: { PostgreSQL: 3601, PGlite: 3602 }, onFailure: () => (allPassed = false) },
    async (database, env, openQuery) => {
      const { tally, problems, restartMs, api } = await killRounds(database, env);
      await api.kill('SIGTERM');
      // The server is gone: read what it left on disk for the SQL invariants.
      const query = await openQuery();
      const broken = await invariantViolations(query);
      const c = await counts(query);
      record(database, tally, problems, broken, restartMs, c);
      expect(problems, 'acknowledged writes missing or incomplete').toEqual([]);
      expect(broken, 'half-written rows').toEqual([]);
      expect(
        Math.max(0, tally.acked.length - c.audited),
        'acknowledged creates without their access-log row',
      ).toBe(0);
    },
  );
});

function record(
  db: keyof typeof rounds,
  tally: StreamTally,
  problems: string[],
  broken: string[],
  restartMs: number[],
  c: Counts,
) {
  const acked = tally.acked.length;
  // Rows on disk for writes the client never heard back about: committed just before the kill.
  const stored = c.devices + (c.users - 1) + c.subscriptions;
  figures.push(
    { name: `${db}: kill -9 faults survived`, value: rounds[db], target: `${rounds[db]}` },
    { name: `${db}: acknowledged writes`, value: acked },
    { name: `${db}: acknowledged writes lost or incomplete`, value: problems.length, target: '0' },
    { name: `${db}: half-written rows (invariant violations)`, value: broken.length, target: '0' },
    { name: `${db}: requests cut off by the kill (not acknowledged)`, value: tally.unanswered },
    { name: `${db}: rows committed but not acknowledged`, value: Math.max(0, stored - acked) },
    {
      name: `${db}: slowest restart to ready`,
      value: Math.round(Math.max(...restartMs) / 100) / 10,
      unit: 's',
    },
    {
      name: `${db}: acknowledged creates without their access-log row`,
      value: Math.max(0, acked - c.audited),
      target: '0',
    },
  );
  if (problems.length) notes.push(`${db}: ${problems.slice(0, 5).join(' | ')}`);
  if (broken.length) notes.push(`${db}: ${broken.join(' | ')}`);
}
