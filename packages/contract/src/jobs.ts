import { z } from 'zod';
import { envelope } from './envelope.ts';

/*
 * The Jobs screen (issue 36 item 1, decision 075): the server's periodic jobs as the queue in the
 * database holds them, whichever instance ran them: each job's period, its latest runs, its failed
 * tries of the last 24 hours, the runs dead-lettered after their last try, and when it runs next.
 */

/** The module's own API path (a module's paths live in its contract file, decision 067). */
export const jobsPaths = {
  list: '/api/v1/admin/jobs',
} as const;

/** A run's state, as pg-boss stores it. */
export const jobRunStates = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobRunState = (typeof jobRunStates)[number];

export const jobRunStateLabels: Record<JobRunState, string> = {
  created: 'Waiting',
  retry: 'Waiting to retry',
  active: 'Running',
  completed: 'Succeeded',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export const jobsTexts = {
  title: 'Jobs',
  intro:
    'Work the server does by itself, once per period across all its instances. A failed run is tried again with a growing wait; one that fails on every try is dead-lettered.',
  jobsCaption: 'Periodic jobs',
  runsTitle: 'Latest runs',
  runsCaption: 'Latest runs of every job, newest first',
  empty: 'No periodic jobs.',
  noRuns: 'No runs in the last two days.',
  off: 'Off',
  perInstance: 'On each instance',
  due: 'Due now',
  notHere:
    'This instance runs no jobs (RUN_JOBS=0): the times below are those of the other instances on the same database.',
} as const;

export const jobRunSchema = z.object({
  /** Which job's run (the jobs list's `name`). */
  job: z.string(),
  state: z.enum(jobRunStates),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  /** When it succeeded, or failed on its last try. */
  finishedAt: z.string().nullable(),
  /** Tries so far: the first one and every retry. */
  attempts: z.number().int(),
  /** The message of its last failed try (never a stack or a bound value). */
  error: z.string().nullable(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobSummarySchema = z.object({
  name: z.string(),
  /** Its period; 0 when a setting turned it off on this instance. */
  everySeconds: z.number().int(),
  /** Work of each instance on its own timer (not on the queue: no runs are recorded). */
  perInstance: z.boolean(),
  /** The start of the next period without a run; null when off or per instance. */
  nextRunAt: z.string().nullable(),
  /** Tries that failed in the last 24 hours, retried or not. */
  failures24h: z.number().int(),
  /** Runs that failed on every try and wait on the dead-letter queue. */
  deadLettered: z.number().int(),
  /** Its latest run, if any in the last two days. */
  lastRun: jobRunSchema.nullable(),
});
export type JobSummary = z.infer<typeof jobSummarySchema>;

export const jobsListSchema = z.object({
  jobs: z.array(jobSummarySchema),
  /** The latest runs of all jobs, newest first (at most 10 a job). */
  runs: z.array(jobRunSchema),
  /** Whether this instance takes part in running them (RUN_JOBS). */
  runsHere: z.boolean(),
});
export type JobsList = z.infer<typeof jobsListSchema>;

export const jobsListResponseSchema = envelope(jobsListSchema);
