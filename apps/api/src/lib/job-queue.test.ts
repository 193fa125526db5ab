import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { freshDatabase } from '../test/test-app.ts';
import { deadLetterQueue, queueName, startJobQueue } from './job-queue.ts';
import type { Job } from './jobs.ts';

/*
 * The periodic jobs on the queue in the database (decision 075), on PGlite and, with DATABASE_URL,
 * on PostgreSQL: two instances on one database share each period's run, a run never overlaps the
 * job's previous one, a failed run is retried with backoff and then dead-lettered, and per-instance
 * work keeps a timer on each instance. Real time: periods of 1 to 4 seconds.
 */

let database: Database;
/** A second instance's handle on the same database: its own pool on PostgreSQL; PGlite is one process. */
let other: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  other = database;
  if (database.kind === 'postgres') {
    const [row] = (await database.executeSql('select current_database() as name')).rows as { name: string }[];
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    other = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  }
});
afterAll(async () => {
  if (other !== database) await other?.close();
  await drop?.();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const logger = () => {
  const lines: string[] = [];
  return { lines, log: { error: (_fields: object, message: string) => void lines.push(message) } };
};

type Run = { state: string; retry_count: number; singleton_on: string; output: { message?: string } | null };
const runsOf = async (job: string) =>
  (
    await database.executeSql(
      'select state::text, retry_count, singleton_on::text, output from pgboss.job where name = $1 order by created_on',
      [queueName(job)],
    )
  ).rows as Run[];

const waitFor = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await sleep(100);
  }
};

// Each test has queues of its own: they run side by side, so the file waits its real time once.
describe.concurrent('the job queue', () => {
  it('runs a periodic job once per period between two instances on one database, not once each', async () => {
    const runs: string[] = [];
    const job = (instance: string): Job => ({
      name: 'count runs',
      everySeconds: 1,
      run: async () => void runs.push(instance),
    });
    const a = logger();
    const b = logger();
    const stopA = await startJobQueue({ executeSql: database.executeSql, jobs: [job('a')], log: a.log });
    const stopB = await startJobQueue({ executeSql: other.executeSql, jobs: [job('b')], log: b.log });
    const started = Date.now();
    await sleep(4_500);
    await Promise.all([stopA(), stopB()]);
    const seconds = (Date.now() - started) / 1000;

    const rows = await runsOf('count runs');
    // One row per slot: each second's run was asked for by both instances and made once.
    expect(new Set(rows.map((r) => r.singleton_on)).size).toBe(rows.length);
    expect(rows.filter((r) => r.state === 'completed')).toHaveLength(runs.length);
    // About one run a second between them; each instance on its own timer would have made twice that.
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor(seconds) - 1);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect([...a.lines, ...b.lines]).toEqual([]);
  });

  it('never runs a job beside its own previous run, on another instance either', async () => {
    let running = 0;
    let most = 0;
    let finished = 0;
    const job: Job = {
      name: 'slow run',
      everySeconds: 1,
      atStart: true,
      run: async () => {
        most = Math.max(most, ++running);
        await sleep(1_600);
        running--;
        finished++;
      },
    };
    const { log } = logger();
    const stopA = await startJobQueue({ executeSql: database.executeSql, jobs: [job], log });
    const stopB = await startJobQueue({ executeSql: other.executeSql, jobs: [job], log });
    await sleep(4_000);
    await Promise.all([stopA(), stopB()]);
    expect(most).toBe(1);
    expect(running).toBe(0);
    expect(finished).toBeGreaterThanOrEqual(2);
  });

  it('tries a failed run again with backoff, and completes it when the next try succeeds', async () => {
    let tries = 0;
    const { lines, log } = logger();
    const stop = await startJobQueue({
      executeSql: database.executeSql,
      jobs: [
        {
          name: 'passing fault',
          everySeconds: 4,
          atStart: true,
          run: async () => {
            if (++tries === 1) throw new Error('the mail server hung up');
          },
        },
      ],
      log,
    });
    try {
      await waitFor(async () => (await runsOf('passing fault'))[0]?.state === 'completed', 10_000);
    } finally {
      await stop();
    }
    const [first] = await runsOf('passing fault');
    expect(first).toMatchObject({ state: 'completed', retry_count: 1 });
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toBe('passing fault failed');
  });

  it('dead-letters a run that failed on every try, with its error, and marks it failed', async () => {
    let tries = 0;
    const { lines, log } = logger();
    const stop = await startJobQueue({
      executeSql: database.executeSql,
      jobs: [
        {
          name: 'always fails',
          everySeconds: 4,
          atStart: true,
          retryLimit: 1,
          run: async () => {
            tries++;
            throw new Error('the disk is full');
          },
        },
      ],
      log,
    });
    try {
      await waitFor(async () => (await runsOf('always fails'))[0]?.state === 'failed', 10_000);
    } finally {
      await stop();
    }
    const [first] = await runsOf('always fails');
    // The first try and one retry.
    expect(first).toMatchObject({ state: 'failed', retry_count: 1, output: { message: 'the disk is full' } });
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(lines.filter((line) => line === 'always fails failed').length).toBeGreaterThanOrEqual(2);
    const dead = (
      await database.executeSql(
        "select data->>'job' as job, output->>'message' as message from pgboss.job where name = $1",
        [deadLetterQueue],
      )
    ).rows;
    expect(dead).toContainEqual({ job: 'always fails', message: 'the disk is full' });
  });

  it('waits at stop for the run in progress, which is then recorded as done', async () => {
    let finished = false;
    const { log } = logger();
    const stop = await startJobQueue({
      executeSql: database.executeSql,
      jobs: [
        {
          name: 'long run',
          everySeconds: 60,
          atStart: true,
          run: async () => {
            await sleep(700);
            finished = true;
          },
        },
      ],
      log,
    });
    await waitFor(async () => (await runsOf('long run'))[0]?.state === 'active', 5_000);
    await stop();
    expect(finished).toBe(true);
    expect((await runsOf('long run')).map((r) => r.state)).toEqual(['completed']);
  });

  it('keeps per-instance work on a timer of each instance, off the queue', async () => {
    const runs = { a: 0, b: 0 };
    const job = (instance: 'a' | 'b'): Job => ({
      name: 'this machine only',
      everySeconds: 1,
      perInstance: true,
      run: async () => void runs[instance]++,
    });
    const { log } = logger();
    const stopA = await startJobQueue({ executeSql: database.executeSql, jobs: [job('a')], log });
    const stopB = await startJobQueue({ executeSql: other.executeSql, jobs: [job('b')], log });
    await sleep(1_500);
    await Promise.all([stopA(), stopB()]);
    expect(runs.a).toBeGreaterThanOrEqual(1);
    expect(runs.b).toBeGreaterThanOrEqual(1);
    const queues = (
      await database.executeSql('select name from pgboss.queue where name = $1', ['this-machine-only'])
    ).rows;
    expect(queues).toEqual([]);
  });

  it('starts on several instances at once, which make each queue once between them', async () => {
    const { lines, log } = logger();
    const job: Job = { name: 'first start', everySeconds: 60, run: async () => {} };
    const stops = await Promise.all(
      [database, other, database].map((db) => startJobQueue({ executeSql: db.executeSql, jobs: [job], log })),
    );
    await Promise.all(stops.map((stop) => stop()));
    const { rows } = await database.executeSql(
      'select policy, dead_letter from pgboss.queue where name = $1',
      ['first-start'],
    );
    expect(rows).toEqual([{ policy: 'singleton', dead_letter: deadLetterQueue }]);
    expect(lines).toEqual([]);
  });

  it('refuses two jobs whose names make one queue', async () => {
    const { log } = logger();
    const run = async () => {};
    await expect(
      startJobQueue({
        executeSql: database.executeSql,
        jobs: [
          { name: 'Mail retry', everySeconds: 60, run },
          { name: 'mail  retry', everySeconds: 60, run },
        ],
        log,
      }),
    ).rejects.toThrow('jobs "Mail retry" and "mail  retry" would share a queue');
  });
});
