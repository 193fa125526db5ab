/**
 * Periodic work a module declares (`AppModule.jobs`): the outbox's retries, the subscription sweep,
 * the alarm checks, the licence sweeps, housekeeping. They run on the job queue on PostgreSQL
 * (lib/job-queue.ts, decision 075): once per period across every instance on the database, retried
 * with backoff, dead-lettered after the last try, shown on the Jobs screen. A run is at least once,
 * not exactly once (a run that outlives its timeout is tried again), so every job still claims its rows.
 */
export type Job = {
  /** Names the job in the log, on the queue (as a slug) and on the Jobs screen; unique. */
  name: string;
  /** How often it runs; 0 or less: never (a setting turned it off). */
  everySeconds: number;
  /** Whether it also runs once right after start (the alarms: a fresh start sees the fleet at once). */
  atStart?: boolean;
  /**
   * Work for this instance alone (the demo fleet drives this process's own simulated machines): it
   * keeps a timer of its own on every instance (`startJobs`), never the queue.
   */
  perInstance?: boolean;
  /** Tries after the first failed one before the run is dead-lettered (3 unless said). */
  retryLimit?: number;
  run: () => Promise<unknown>;
};

/** Where a failed run is told (the app's logger). */
export type JobLog = { error: (fields: object, message: string) => void };

/**
 * Starts every job on its own timer, in this process alone: the per-instance jobs (`perInstance`;
 * lib/job-queue.ts hands them here). A run never overlaps the job's previous one (a slow run is
 * skipped over, not queued), a failure is logged and the job runs again next period, and the timers
 * never keep the process alive. The answer stops them all and waits for runs in progress.
 */
export function startJobs(jobs: readonly Job[], log: JobLog): () => Promise<void> {
  const stops = jobs.filter((job) => job.everySeconds > 0).map((job) => startJob(job, log));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

function startJob(job: Job, log: JobLog): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = job
      .run()
      .then(() => undefined)
      .catch((error: unknown) =>
        log.error({ err: error instanceof Error ? error.message : String(error) }, `${job.name} failed`),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = job.atStart ? setTimeout(run, 0) : null;
  first?.unref();
  const timer = setInterval(run, job.everySeconds * 1000);
  timer.unref();
  return async () => {
    if (first) clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}

/**
 * Runs every job once now, one after the other, whatever its period (the clock-control route: the
 * jobs catch up with a clock moved forward). A failure is logged as a timer's would be.
 */
export async function runJobsOnce(jobs: readonly Job[], log: JobLog): Promise<void> {
  for (const job of jobs) {
    try {
      await job.run();
    } catch (error) {
      log.error({ err: error instanceof Error ? error.message : String(error) }, `${job.name} failed`);
    }
  }
}
