// kill -9 the real API server while a machine streams batches of records (access logs, error logs,
// treatments) through the device API, restart it on the same data, let the machine retry what it
// sent, as the app does (every unanswered batch, and some answered ones again, with the same item
// ids), and check that every item the API acknowledged is in the database exactly once.
//
// DEVICE_KILL_ROUNDS (default 2) kills per database; DEVICE_KILL_AFTER (default 12) acknowledged
// batches per round before the kill. PostgreSQL, then the embedded PGlite (one round: its restart
// costs some 10-20 s of WASM start-up on 2 cores).
import { afterAll, describe, expect } from 'vitest';
import type { BatchResult } from '@app/contract/device-api';
import { seededRandom } from '@app/fleet-simulator/fake-data';
import { ApiError } from '@app/fleet-simulator/http';
import { startApi, type ApiProcess } from './api-process.ts';
import { itOnEachDatabase, type SqlQuery } from './kill-database.ts';
import { writeHardeningResult, type Figure } from './result-file.ts';
import {
  nextBatches,
  sendBatch,
  syncingMachine,
  type Batch,
  type SyncingMachine,
} from './syncing-machine.ts';

const rounds = {
  PostgreSQL: Number(process.env.DEVICE_KILL_ROUNDS ?? 2),
  PGlite: Math.min(1, Number(process.env.DEVICE_KILL_ROUNDS ?? 1)),
};
const killAfter = Number(process.env.DEVICE_KILL_AFTER ?? 12);
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
      "An enrolled machine (the fleet simulator's client, its own retries off) with a signed-in doctor sends batches (20 access logs, 5 error logs, 3 treatments, each item with its own id) from 4 connections; SIGKILL lands while batches are in flight; the server restarts on the same data.",
      'The machine then retries, as the app does: every batch that got no answer, and every third answered batch again, with the same ids.',
      'Checked: every item the API answered "accepted" is in the database, and no item id is stored twice.',
    ],
  });
});

/*
 * The machine is the reference client (tools/fleet-simulator), with its retries switched off: the
 * suite itself decides what the app sends again after the crash.
 */
const once = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };
const random = seededRandom(1);

/** An enrolled machine with a technician, a signed-in doctor and five patients, through the real routes. */
const provision = (url: string) => syncingMachine(url, { name: 'Kill', retry: once, patients: 5, random });

type Tally = { acked: Set<string>; answered: Batch[]; unanswered: Batch[]; unexpected: string[] };

async function stream(p: SyncingMachine, tally: Tally, stop: { now: boolean }) {
  const worker = async () => {
    while (!stop.now) {
      for (const batch of nextBatches(p, random)) {
        let answer: BatchResult;
        try {
          answer = await sendBatch(p, batch);
        } catch (error) {
          // An answer that is not 200 is a finding; a lost connection is the crash: the app keeps
          // the batch and sends it again.
          if (error instanceof ApiError) tally.unexpected.push(error.message);
          else tally.unanswered.push(batch);
          return;
        }
        for (const r of answer.results) if (r.status === 'accepted') tally.acked.add(r.id!);
        tally.answered.push(batch);
      }
    }
  };
  return Promise.all([worker(), worker(), worker(), worker()]);
}

async function killRounds(label: keyof typeof rounds, env: Record<string, string>) {
  let api: ApiProcess = await startApi(env);
  const provisioned = await provision(api.url);
  const tally: Tally = { acked: new Set(), answered: [], unanswered: [], unexpected: [] };
  let retried = 0;
  try {
    for (let round = 0; round < rounds[label]; round++) {
      const stop = { now: false };
      const before = tally.answered.length;
      const running = stream(provisioned, tally, stop);
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
        try {
          const answer = await sendBatch(provisioned, batch);
          for (const r of answer.results) if (r.status === 'accepted') tally.acked.add(r.id!);
        } catch (error) {
          tally.unexpected.push(`retry: ${String(error)}`);
        }
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

async function verify(label: string, query: SqlQuery, run: Awaited<ReturnType<typeof killRounds>>) {
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
  itOnEachDatabase(
    'keeps every acknowledged item, and none twice after the retries',
    { name: 'devkill', ports: { PostgreSQL: 3611, PGlite: 3612 }, onFailure: () => (allPassed = false) },
    async (database, env, openQuery) => {
      const run = await killRounds(database, env);
      await run.api.kill('SIGTERM');
      await verify(database, await openQuery(), run);
    },
  );
});
