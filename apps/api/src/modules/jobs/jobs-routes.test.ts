import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsPaths, type JobsList } from '@app/contract/jobs';
import { startJobQueue } from '#api/lib/job-queue.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { secondInstance } from '#api/test/second-instance.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * The periodic jobs on the queue (decision 075), through two API instances on one database (its own
 * pool each on PostgreSQL; one PGlite shared in a process), and the Jobs screen's API. Real time:
 * the alarm checks every second.
 */

let t: TestApp;
let other: { app: FastifyInstance; close: () => Promise<void> };
let token: string;
beforeAll(async () => {
  t = await createTestApp({ RUN_JOBS: '1', ALARM_CHECK_SECONDS: '1' });
  other = await secondInstance(t);
  token = await t.login();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const listJobs = async (as = token): Promise<JobsList> => {
  const res = await t.injectAs(as, { method: 'GET', url: jobsPaths.list });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as JobsList;
};

describe('the periodic jobs of two instances on one database', () => {
  it('run the alarm checks once a second between them, which the Jobs list shows with the next run', async () => {
    await sleep(3_300);
    const { rows } = await t.database.executeSql(
      "select singleton_on::text as slot, state::text as state from pgboss.job where name = 'alarm-checks'",
    );
    const slots = (rows as { slot: string; state: string }[]).map((r) => r.slot);
    // Both instances asked for every second's run; each second has one.
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots.length).toBeGreaterThanOrEqual(2);

    const list = await listJobs();
    expect(list.runsHere).toBe(true);
    const checks = list.jobs.find((job) => job.name === 'alarm checks')!;
    expect(checks).toMatchObject({ everySeconds: 1, perInstance: false, failures24h: 0, deadLettered: 0 });
    expect(checks.lastRun).toMatchObject({ job: 'alarm checks', error: null });
    const next = Date.parse(checks.nextRunAt!);
    expect(Math.abs(next - Date.now())).toBeLessThan(2_000);
    const done = list.runs.filter((run) => run.job === 'alarm checks' && run.state === 'completed');
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done[0]).toMatchObject({ attempts: 1, error: null });
    expect(Date.parse(done[0]!.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(done[0]!.startedAt!));
    // A job a setting turned off here has no next run.
    expect(list.jobs.find((job) => job.name === 'licence sweep')).toMatchObject({
      everySeconds: 0,
      nextRunAt: null,
    });
  });

  it('lists a run that failed on every try with its error, its failed tries and its dead letter', async () => {
    // Another instance, where the licence sweeps are on, fails its run of the daily one.
    const stop = await startJobQueue({
      executeSql: t.database.executeSql,
      jobs: [
        {
          name: 'licence full sweep',
          everySeconds: 4,
          atStart: true,
          retryLimit: 1,
          run: async () => {
            throw new Error('could not obtain lock on relation "devices"');
          },
        },
      ],
      log: { error: () => {} },
    });
    let list: JobsList;
    try {
      const until = Date.now() + 10_000;
      do {
        await sleep(200);
        list = await listJobs();
      } while (
        !list.runs.some((run) => run.job === 'licence full sweep' && run.state === 'failed') &&
        Date.now() < until
      );
    } finally {
      await stop();
    }
    const sweep = list.jobs.find((job) => job.name === 'licence full sweep')!;
    expect(sweep.failures24h).toBeGreaterThanOrEqual(2);
    expect(sweep.deadLettered).toBeGreaterThanOrEqual(1);
    expect(sweep.lastRun).not.toBeNull();
    expect(list.runs.find((run) => run.job === 'licence full sweep' && run.state === 'failed')).toMatchObject(
      {
        attempts: 2,
        error: 'could not obtain lock on relation "devices"',
      },
    );
    expect(list.jobs.find((job) => job.name === 'alarm checks')).toMatchObject({
      failures24h: 0,
      deadLettered: 0,
    });
  });

  it('is read with logs.view, and refused without it', async () => {
    const devicesOnly = await signInWithPermissions(t, token, ['devices.view']);
    const res = await t.injectAs(devicesOnly.token, { method: 'GET', url: jobsPaths.list });
    expect(res.statusCode).toBe(403);
    const auditor = await signInWithPermissions(t, token, ['logs.view']);
    expect((await listJobs(auditor.token)).jobs.map((job) => job.name)).toContain('alarm checks');
  });
});
