import {
  jobRunStateLabels,
  jobsTexts,
  type JobRun,
  type JobRunState,
  type JobSummary,
} from '@app/contract/jobs';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { StatusBadge, type StatusTone } from '#web/components/status-badge.tsx';
import { formatDateTime, NA, orNA } from '#web/lib/format.ts';

const stateTones: Record<JobRunState, StatusTone> = {
  created: 'secondary',
  retry: 'warning',
  active: 'info',
  completed: 'success',
  cancelled: 'secondary',
  failed: 'danger',
};

export function JobRunStateBadge({ state }: { state: JobRunState }) {
  return <StatusBadge label={jobRunStateLabels[state]} tone={stateTones[state]} />;
}

const units: [seconds: number, unit: string][] = [
  [86_400, 'day'],
  [3_600, 'h'],
  [60, 'min'],
  [1, 's'],
];

/** "Every 5 min", "Every 1 day", "Every 90 s": the largest unit the period is a whole number of. */
export function formatPeriod(seconds: number): string {
  const [size, unit] = units.find(([size]) => seconds % size === 0) ?? [1, 's'];
  const count = seconds / size;
  return `Every ${count} ${unit === 'day' && count !== 1 ? 'days' : unit}`;
}

const period = (job: JobSummary) => {
  if (job.everySeconds <= 0) return jobsTexts.off;
  const every = formatPeriod(job.everySeconds);
  return job.perInstance ? `${every}, ${jobsTexts.perInstance.toLowerCase()}` : every;
};

/** The next slot without a run; one already begun is due now (the next tick takes it). */
const nextRun = (job: JobSummary, now: number) => {
  if (job.nextRunAt === null) return NA;
  return Date.parse(job.nextRunAt) <= now ? jobsTexts.due : formatDateTime(job.nextRunAt);
};

/** One row per job: how often, how its last run went, when it runs next, and what failed. */
export const jobColumns = (now: number): DataTableColumn<JobSummary>[] => [
  { key: 'name', header: 'Job', className: 'text-nowrap' },
  { key: 'everySeconds', header: 'Runs', className: 'text-nowrap', render: period },
  {
    key: 'lastRun',
    header: 'Last Run',
    className: 'text-nowrap',
    render: (job) =>
      job.lastRun ? (
        <span className="d-inline-flex flex-wrap align-items-center gap-2">
          <JobRunStateBadge state={job.lastRun.state} />
          {formatDateTime(job.lastRun.startedAt ?? job.lastRun.createdAt)}
        </span>
      ) : (
        NA
      ),
  },
  { key: 'nextRunAt', header: 'Next Run', className: 'text-nowrap', render: (job) => nextRun(job, now) },
  { key: 'failures24h', header: 'Failed Tries (24 h)', className: 'text-end' },
  { key: 'deadLettered', header: 'Dead-lettered', className: 'text-end' },
];

/** The latest runs of every job, newest first, with the error of a failed try. */
export const runColumns: DataTableColumn<JobRun>[] = [
  { key: 'job', header: 'Job', className: 'text-nowrap' },
  { key: 'state', header: 'State', render: (run) => <JobRunStateBadge state={run.state} /> },
  {
    key: 'startedAt',
    header: 'Started',
    className: 'text-nowrap',
    render: (run) => formatDateTime(run.startedAt),
  },
  {
    key: 'finishedAt',
    header: 'Finished',
    className: 'text-nowrap',
    render: (run) => formatDateTime(run.finishedAt),
  },
  { key: 'attempts', header: 'Tries', className: 'text-end' },
  { key: 'error', header: 'Error', render: (run) => orNA(run.error), truncate: '24em' },
];
