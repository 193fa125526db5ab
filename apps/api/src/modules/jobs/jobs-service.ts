import { sql } from 'drizzle-orm';
import type { JobRun, JobRunState, JobsList, JobSummary } from '@app/contract/jobs';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { deadLetterQueue, queueName } from '#api/lib/job-queue.ts';
import type { Job } from '#api/lib/jobs.ts';

/** Runs listed per job: the Jobs screen's table of latest runs. */
const runsPerJob = 10;

type RunRow = {
  queue: string;
  state: JobRunState;
  created_on: Date | string;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  retry_count: number;
  error: string | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A failed try ends a run in retry or failed; each retry started follows one (pg-boss counts those). */
const failedTries = sql`retry_count + case when state::text in ('retry', 'failed') then 1 else 0 end`;

/**
 * The Jobs screen (decision 075): what the queue's tables hold about each declared job. Runs stay
 * on pg-boss's job table for two days (lib/job-queue.ts), so these reads never touch its archive.
 */
export function createJobsService({
  db,
  jobs,
  runsHere,
}: {
  db: Db;
  /** The app's declared jobs (known once every module is registered). */
  jobs: () => readonly Job[];
  runsHere: boolean;
}) {
  return {
    async list(): Promise<JobsList> {
      const declared = jobs();
      const queues = declared.filter((job) => !job.perInstance).map((job) => queueName(job.name));
      const none = sql`(select null::text where false)`;
      const inQueues = queues.length ? sql`${queues}` : none;

      const runRows = rowsOf<RunRow>(
        await db.execute(sql`
          select name as queue, state::text as state, created_on, started_on, completed_on, retry_count,
                 output->>'message' as error
          from (select *, row_number() over (partition by name order by created_on desc, id) as n
                from pgboss.job where name in ${inQueues}) r
          where n <= ${runsPerJob}
          order by created_on desc, queue`),
      );
      const failureRows = rowsOf<{ queue: string; failures: number }>(
        await db.execute(sql`
          select name as queue, sum(${failedTries})::int as failures from pgboss.job
          where name in ${inQueues} and created_on > now() - interval '24 hours' group by name`),
      );
      const deadRows = rowsOf<{ job: string; count: number }>(
        await db.execute(sql`
          select data->>'job' as job, count(*)::int as count from pgboss.job
          where name = ${deadLetterQueue} and state::text = 'created' group by 1`),
      );
      // Slots are counted on the database's clock, as the queue counts them.
      const slotRows = rowsOf<{ queue: string | null; slot: number | null; now: number }>(
        await db.execute(sql`
          select s.queue, s.slot, extract(epoch from now())::float8 as now
          from (select 1) one left join (
            select name as queue, extract(epoch from max(singleton_on))::float8 as slot from pgboss.job
            where name in ${inQueues} and singleton_on is not null group by name) s on true`),
      );

      const now = Number(slotRows[0]?.now ?? Date.now() / 1000);
      const runs: JobRun[] = runRows.map((r) => ({
        job: declared.find((job) => queueName(job.name) === r.queue)?.name ?? r.queue,
        state: r.state,
        createdAt: iso(r.created_on)!,
        startedAt: iso(r.started_on),
        finishedAt: r.state === 'completed' || r.state === 'failed' ? iso(r.completed_on) : null,
        attempts: Number(r.retry_count) + (r.started_on === null ? 0 : 1),
        error: r.state === 'completed' ? null : r.error,
      }));

      const summaries: JobSummary[] = declared.map((job) => {
        const queue = queueName(job.name);
        const perInstance = Boolean(job.perInstance);
        const period = Math.max(0, job.everySeconds);
        let nextRunAt: string | null = null;
        if (!perInstance && period > 0) {
          const current = Math.floor(now / period) * period;
          const last = slotRows.find((s) => s.queue === queue)?.slot ?? null;
          const next = last !== null && Number(last) >= current ? current + period : current;
          nextRunAt = new Date(next * 1000).toISOString();
        }
        return {
          name: job.name,
          everySeconds: period,
          perInstance,
          nextRunAt,
          failures24h: failureRows.find((f) => f.queue === queue)?.failures ?? 0,
          deadLettered: deadRows.find((d) => d.job === job.name)?.count ?? 0,
          lastRun: perInstance ? null : (runs.find((run) => run.job === job.name) ?? null),
        };
      });
      return { jobs: summaries, runs, runsHere };
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;
