// kill -9 the real API server while a machine streams batches of records (access logs, error logs,
// treatments) through the device API, restart it on the same data, let the machine retry what it
// sent, as the app does (every unanswered batch, and some answered ones again, with the same item
// ids), and check that every item the API acknowledged is in the database exactly once.
//
// DEVICE_KILL_ROUNDS (default 2) kills per database; DEVICE_KILL_AFTER (default 12) acknowledged
// batches per round before the kill. PostgreSQL, then the embedded PGlite (one round: its restart
// costs some 10-20 s of WASM start-up on 2 cores).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { openDatabase } from '../db/client.ts';
import { apiEnv, call, login, startApi, type ApiProcess } from './api-process.ts';
import { createScratchDatabase } from './private-postgres.ts';
import { writeHardeningResult, type Figure } from './result-file.ts';

const rounds = {
  PostgreSQL: Number(process.env.DEVICE_KILL_ROUNDS ?? 2),
  PGlite: Math.min(1, Number(process.env.DEVICE_KILL_ROUNDS ?? 1)),
};
const killAfter = Number(process.env.DEVICE_KILL_AFTER ?? 12);
const ports = { postgres: 3611, pglite: 3612 };
const figures: Figure[] = [];
let allPassed = true;

afterAll(() => {
  writeHardeningResult({
    suite: 'faults-device-kill',
    title: 'Faults: kill -9 while machines sync',
    passed: allPassed,
    database: 'PostgreSQL and PGlite (embedded)',
    figures,
    notes: [
      'An enrolled machine with a signed-in doctor sends batches (20 access logs, 5 error logs, 3 treatments, each item with its own id) from 4 connections; SIGKILL lands while batches are in flight; the server restarts on the same data.',
      'The machine then retries, as the app does: every batch that got no answer, and every third answered batch again, with the same ids.',
      'Checked: every item the API answered "accepted" is in the database, and no item id is stored twice.',
    ],
  });
});

type DeviceAnswer = {
  accessToken: string;
  user: { userId: number };
  results: Array<{ id: string; status: string }>;
};
type Batch = { route: string; items: Array<Record<string, unknown>> };
type Machine = { url: string; credential: string; session: string };

async function deviceCall(m: Machine, route: string, body: unknown) {
  const res = await fetch(`${m.url}${route}`, {
    method: 'POST',
    headers: {
      authorization: `Device ${m.credential}`,
      'x-app-session': m.session,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  // Every device answer is an envelope; the callers read the fields they asked for.
  return { status: res.status, json: (await res.json()) as { data: DeviceAnswer } };
}

/** Provisions an enrolled machine with a doctor signed in and five patients, through the real routes. */
async function provision(
  url: string,
): Promise<{ machine: Machine; patientIds: string[]; doctorUserId: number }> {
  const token = await login(url);
  const add = await call(url, token, 'POST', apiPaths.machineAdd, {
    machineNumber: `K-${randomUUID().slice(0, 8)}`,
    serialNumber: `SK-${randomUUID().slice(0, 8)}`,
    location: 'Kill Clinic',
    latitude: 1,
    longitude: 2,
    city: 'Oslo',
    country: 'Norway',
    address: 'Gate 1',
  });
  const deviceId = (add.json?.data as { _id: string })._id;
  const code = (await call(url, token, 'POST', apiPaths.machineEnrolmentCode(deviceId))).json?.data as {
    code: string;
  };
  const enrol = await fetch(`${url}${apiPaths.appEnrol}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: code.code }),
  });
  const { credential, machineNumber } = (
    (await enrol.json()) as { data: { credential: string; machineNumber: string } }
  ).data;
  const role = await call(url, token, 'POST', apiPaths.roles, {
    roleName: `Tech ${randomUUID().slice(0, 6)}`,
    type: 'app',
  });
  const roleRow = role.json?.data as { _id: string; roleId: number };
  const tech = { userName: `tk${randomUUID().slice(0, 8)}`, password: 'Tech-Passw0rd' };
  const user = await call(url, token, 'POST', apiPaths.users, {
    firstName: 'Kai',
    lastName: 'Tech',
    roleId: roleRow._id,
    userName: tech.userName,
    email: `${tech.userName}@example.com`,
    phone: '0123456789',
    password: tech.password,
  });
  await call(url, token, 'PUT', apiPaths.userMachines((user.json?.data as { _id: string })._id), {
    deviceIds: [deviceId],
  });
  const signIn = async (username: string, password: string, session = '') =>
    (await deviceCall({ url, credential, session }, apiPaths.appLogin, { username, password })).json.data as {
      accessToken: string;
      user: { userId: number };
    };
  const techSession = await signIn(tech.userName, tech.password);
  const doctor = { username: `drk${randomUUID().slice(0, 6)}`, password: 'Doctor-Passw0rd' };
  const person = {
    nickName: 'K',
    email: 'k@example.com',
    sex: 1,
    age: 40,
    phonenumber: '+4712345678',
    machineNumber,
    lat: 59.9,
    long: 10.7,
    address: 'Gate 2',
    city: 'Oslo',
    state: 'Oslo',
    country: 'Norway',
    createdAt: new Date().toISOString(),
  };
  await deviceCall({ url, credential, session: techSession.accessToken }, apiPaths.appDoctors, {
    items: [
      {
        ...person,
        id: randomUUID(),
        username: doctor.username,
        password: doctor.password,
        roleId: roleRow.roleId,
      },
    ],
  });
  const doctorSession = await signIn(doctor.username, doctor.password);
  const machine = { url, credential, session: doctorSession.accessToken };
  const patientIds = Array.from({ length: 5 }, () => randomUUID());
  await deviceCall(machine, apiPaths.appPatients, {
    items: patientIds.map((id, i) => ({ ...person, id, username: `Patient ${i}` })),
  });
  return { machine, patientIds, doctorUserId: doctorSession.user.userId };
}

function nextBatches(patientIds: string[], userId: number): Batch[] {
  const at = new Date().toISOString();
  const start = new Date(Date.now() - 20 * 60_000).toISOString();
  return [
    {
      route: apiPaths.appAccessLogs,
      items: Array.from({ length: 20 }, () => ({
        id: randomUUID(),
        resource: 'GET /patients',
        time: at,
        userId,
      })),
    },
    {
      route: apiPaths.appErrorLogs,
      items: Array.from({ length: 5 }, () => ({
        id: randomUUID(),
        resource: 'POST /treatments',
        functionName: 'sync',
        utcTime: at,
        userId,
      })),
    },
    {
      route: apiPaths.appTreatments,
      items: Array.from({ length: 3 }, (_, i) => ({
        id: randomUUID(),
        patientId: patientIds[i % patientIds.length],
        treatmentDevice: 'ShockWave S1',
        treatmentPlan: 'Plantar fasciitis',
        treatmentStartTime: start,
        treatmentEndTime: at,
        treatmentDuration: 20,
        treatmentEnergy: 0.2,
        totalEnergyOutput: 400,
      })),
    },
  ];
}

type Tally = { acked: Set<string>; answered: Batch[]; unanswered: Batch[]; unexpected: string[] };

async function stream(
  m: Machine,
  patientIds: string[],
  userId: number,
  tally: Tally,
  stop: { now: boolean },
) {
  const worker = async () => {
    while (!stop.now) {
      for (const batch of nextBatches(patientIds, userId)) {
        try {
          const res = await deviceCall(m, batch.route, { items: batch.items });
          if (res.status !== 200) {
            tally.unexpected.push(`${batch.route} answered ${res.status}`);
            continue;
          }
          for (const r of res.json.data.results) if (r.status === 'accepted') tally.acked.add(r.id);
          tally.answered.push(batch);
        } catch {
          // The connection died with the server: the app keeps the batch and sends it again.
          tally.unanswered.push(batch);
          return;
        }
      }
    }
  };
  return Promise.all([worker(), worker(), worker(), worker()]);
}

async function killRounds(label: keyof typeof rounds, env: Record<string, string>) {
  let api: ApiProcess = await startApi(env);
  const { machine, patientIds, doctorUserId } = await provision(api.url);
  const tally: Tally = { acked: new Set(), answered: [], unanswered: [], unexpected: [] };
  let retried = 0;
  try {
    for (let round = 0; round < rounds[label]; round++) {
      const stop = { now: false };
      const before = tally.answered.length;
      const running = stream({ ...machine, url: api.url }, patientIds, doctorUserId, tally, stop);
      const deadline = Date.now() + 60_000;
      while (tally.answered.length - before < killAfter && Date.now() < deadline && !tally.unexpected.length)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await api.kill('SIGKILL');
      stop.now = true;
      await running;
      api = await startApi(env);
      // The app's retry: what got no answer, and some of what did, with the same ids.
      const again = [...tally.unanswered.splice(0), ...tally.answered.filter((_, i) => i % 3 === 0)];
      for (const batch of again) {
        const res = await deviceCall({ ...machine, url: api.url }, batch.route, { items: batch.items });
        if (res.status !== 200) tally.unexpected.push(`retry of ${batch.route} answered ${res.status}`);
        else for (const r of res.json.data.results) if (r.status === 'accepted') tally.acked.add(r.id);
        retried++;
      }
    }
    return { tally, retried, api };
  } catch (error) {
    await api.kill('SIGKILL');
    throw error;
  }
}

const checkQueries = {
  stored: (ids: string[]) =>
    `select client_id::text as id from access_logs where client_id = any('{${ids.join(',')}}'::uuid[])
     union all select client_id::text from error_logs where client_id = any('{${ids.join(',')}}'::uuid[])
     union all select client_id::text from treatment_records where client_id = any('{${ids.join(',')}}'::uuid[])`,
  twice: `select client_id from (select client_id from access_logs where client_id is not null
     union all select client_id from error_logs where client_id is not null
     union all select client_id from treatment_records where client_id is not null) x group by client_id having count(*) > 1`,
};

async function verify(
  label: string,
  query: (q: string) => Promise<Array<Record<string, unknown>>>,
  run: Awaited<ReturnType<typeof killRounds>>,
) {
  const acked = [...run.tally.acked];
  const stored = new Set((await query(checkQueries.stored(acked))).map((r) => String(r.id)));
  const missing = acked.filter((id) => !stored.has(id));
  const twice = await query(checkQueries.twice);
  figures.push(
    { name: `${label}: items acknowledged`, value: acked.length },
    { name: `${label}: batches sent again after the restart`, value: run.retried },
    { name: `${label}: acknowledged items missing`, value: missing.length, target: '0' },
    { name: `${label}: items stored twice`, value: twice.length, target: '0' },
  );
  expect(run.tally.unexpected, 'answers that were neither 200 nor a lost connection').toEqual([]);
  // Each round ran until killAfter batches were answered, and the smallest batch holds 3 items.
  expect(acked.length).toBeGreaterThanOrEqual(killAfter * 3);
  expect(missing, 'acknowledged items missing after the crash').toEqual([]);
  expect(twice, 'items stored twice after the retries').toEqual([]);
}

describe('kill -9 while a machine syncs', () => {
  it('keeps every acknowledged item, and none twice after the retries, on PostgreSQL', async () => {
    const scratch = await createScratchDatabase('devkill');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'devkill-pg-'));
    const env = apiEnv({
      port: ports.postgres,
      dataDir,
      env: { DATABASE_URL: scratch.url, PAYMENT_PROVIDER: 'demo' },
    });
    const client = new pg.Client({ connectionString: scratch.url });
    try {
      const run = await killRounds('PostgreSQL', env);
      await run.api.kill('SIGTERM');
      await client.connect();
      await verify('PostgreSQL', async (q) => (await client.query(q)).rows, run);
    } catch (error) {
      allPassed = false;
      throw error;
    } finally {
      await client.end().catch(() => {});
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps every acknowledged item, and none twice after the retries, on the embedded PGlite', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'devkill-pglite-'));
    const env = apiEnv({ port: ports.pglite, dataDir });
    try {
      const run = await killRounds('PGlite', env);
      await run.api.kill('SIGTERM');
      const database = await openDatabase({ dataDir });
      try {
        await verify(
          'PGlite',
          async (q) =>
            ((await database.db.execute(sql.raw(q))) as unknown as { rows: Array<Record<string, unknown>> })
              .rows,
          run,
        );
      } finally {
        await database.close();
      }
    } catch (error) {
      allPassed = false;
      throw error;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
