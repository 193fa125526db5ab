import PgBoss from 'pg-boss';
import { jobQueueSchema, type ExecuteSql } from '../db/job-queue-schema.ts';
import { startJobs, type Job, type JobLog } from './jobs.ts';
import { loggableMessage } from './loggable-error.ts';

/*
 * The periodic jobs on a queue in the application's database (pg-boss 10, decision 075), so that
 * several API instances on one database run each job once per period between them, not once each.
 *
 * Each job has a queue of its own. Time is cut into slots of the job's period, counted from the
 * epoch on the database's clock; every instance ticks a few times per slot and asks for that slot's
 * run (a pg-boss throttle: one row per queue and slot, the first ask wins, the others are no-ops),
 * then takes whatever run is due on the queue (`fetch`, FOR UPDATE SKIP LOCKED: one instance gets
 * it). The queue's `singleton` policy lets one run of a job be active at a time across all
 * instances, so a run never overlaps the job's previous one; a slot's run is asked for only while
 * none waits (to start, or to be tried again), so a slow run makes no backlog and a run waiting for
 * its retry stands for the periods it spans. A failed run is tried again with backoff; after its
 * last try it is marked failed and a copy lands on the dead-letter queue, which nothing works: it is
 * there to be seen on the Jobs screen.
 */

/** Where each run that spent its tries lands, its job's name in `data.job`. */
export const deadLetterQueue = 'dead-letter';

/**
 * A finished run stays on the job table this long (then in pg-boss's archive for 7 days more). It
 * must outlast the longest period: its row is what stops a second run in the same slot.
 */
const keptSeconds = 2 * 86_400;

const defaultRetryLimit = 3;

/** The queue of a job: its name as a slug ("licence full sweep" → "licence-full-sweep"). */
export const queueName = (jobName: string): string =>
  jobName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * How often an instance ticks for a job: at least twice per slot (so a clock a little off the
 * database's still asks in every slot), at most every 30 s (a retry whose wait is over is picked up
 * that soon), and a whole fraction of the period, so ticks fall at the start of each slot.
 */
const tickSeconds = (everySeconds: number): number =>
  everySeconds / Math.max(2, Math.ceil(everySeconds / 30));

/** The first retry waits about a tenth of the period (1 s to 5 min), each next one twice as long. */
const retryDelaySeconds = (everySeconds: number): number =>
  Math.min(300, Math.max(1, Math.round(everySeconds / 10)));

/**
 * Starts the ticks of every shared job (and the per-instance jobs' own timers). The answer stops
 * them and waits for the runs in progress on this instance.
 */
export async function startJobQueue({
  executeSql,
  jobs,
  log,
}: {
  executeSql: ExecuteSql;
  jobs: readonly Job[];
  log: JobLog;
}): Promise<() => Promise<void>> {
  const shared = jobs.filter((job) => !job.perInstance);
  const queues = new Map<string, string>();
  for (const job of shared) {
    const queue = queueName(job.name);
    const taken = queues.get(queue);
    if (taken !== undefined) throw new Error(`jobs "${taken}" and "${job.name}" would share a queue`);
    queues.set(queue, job.name);
    if (job.everySeconds > keptSeconds / 2)
      throw new Error(`job "${job.name}" runs less often than every ${keptSeconds / 2} s`);
  }
  const due = shared.filter((job) => job.everySeconds > 0);
  const stopLocal = startJobs(
    jobs.filter((job) => job.perInstance),
    log,
  );
  if (!due.length) return stopLocal;

  const boss = new PgBoss({
    db: { executeSql },
    schema: jobQueueSchema,
    // Installed with the migrations (db/job-queue-schema.ts); here it is only checked.
    migrate: false,
    // pg-boss's own cron needs whole minutes; our slots are the jobs' periods, in seconds.
    schedule: false,
    // Maintenance, once every 2 minutes across instances: a run active past its timeout (an
    // instance died mid-run) is failed and so retried; old runs are archived, then dropped.
    supervise: true,
    archiveCompletedAfterSeconds: keptSeconds,
    deleteAfterDays: 7,
  });
  boss.on('error', (error: Error) =>
    log.error({ err: loggableMessage(error.message) }, 'job queue maintenance failed'),
  );
  await boss.start();
  await executeSql(createQueuesScript(due.map((job) => queueName(job.name))));
  const tickers = due.map((job) => startTicks(boss, executeSql, job, log));
  return async () => {
    await Promise.all(tickers.map((stop) => stop()));
    // No pg-boss worker runs here (the ticks fetch): nothing of pg-boss's to wait for.
    await boss.stop({ graceful: false, close: false });
    await stopLocal();
  };
}

/** Any number the application uses for no other lock (db/client.ts has the start-up lock's). */
const createQueuesLockKey = 0x5e70_0002;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The queues, made where missing, in one transaction under an advisory lock. pg-boss's
 * `create_queue` makes a partition with foreign keys to its queue table: two instances making
 * queues at the same moment (a first start of several) deadlock on that table without the lock.
 */
function createQueuesScript(queues: readonly string[]): string {
  const create = (queue: string, options: object) =>
    `select ${jobQueueSchema}.create_queue(${literal(queue)}, ${literal(JSON.stringify(options))}::json);`;
  return [
    'begin;',
    `select pg_advisory_xact_lock(${createQueuesLockKey});`,
    create(deadLetterQueue, { policy: 'standard' }),
    ...queues.map((queue) => create(queue, { policy: 'singleton', deadLetter: deadLetterQueue })),
    'commit;',
  ].join('\n');
}

function startTicks(boss: PgBoss, executeSql: ExecuteSql, job: Job, log: JobLog): () => Promise<void> {
  const queue = queueName(job.name);
  const stepMs = tickSeconds(job.everySeconds) * 1000;
  // Just after the slot starts, so the database's clock is in the new slot too.
  const lagMs = Math.min(250, stepMs / 4);
  const sendOptions: PgBoss.SendOptions = {
    singletonKey: queue,
    singletonSeconds: job.everySeconds,
    retryLimit: job.retryLimit ?? defaultRetryLimit,
    retryDelay: retryDelaySeconds(job.everySeconds),
    retryBackoff: true,
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;

  const failed = (error: unknown) => loggableMessage(error instanceof Error ? error.message : String(error));

  async function tick() {
    const waiting = await executeSql(
      `select 1 from ${jobQueueSchema}.job where name = $1 and state < 'active' limit 1`,
      [queue],
    );
    if (!waiting.rows.length) await boss.send(queue, { job: job.name }, sendOptions);
    // This slot's run, or a retry whose wait is over, unless another instance takes it first.
    while (!stopped) {
      const [run] = await boss.fetch(queue);
      if (!run) return;
      try {
        await job.run();
      } catch (error) {
        const message = failed(error);
        log.error({ err: message }, `${job.name} failed`);
        await boss.fail(queue, run.id, { message });
        continue;
      }
      await boss.complete(queue, run.id);
    }
  }

  const untilNextTick = () => stepMs - (Date.now() % stepMs) + lagMs;
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      ticking = tick()
        .catch((error: unknown) => log.error({ err: failed(error) }, `${job.name}: the job queue failed`))
        .finally(() => {
          ticking = null;
          schedule(untilNextTick());
        });
    }, delayMs);
    timer.unref();
  };
  schedule(job.atStart ? 0 : untilNextTick());

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await ticking;
  };
}
