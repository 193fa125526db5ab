import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { jobsTexts, type JobRun, type JobsList, type JobSummary } from '@app/contract/jobs';
import { ok } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { formatPeriod } from '../components/jobs-columns.tsx';
import { JobsPage } from './jobs-page.tsx';

const run = (over: Partial<JobRun> = {}): JobRun => ({
  job: 'alarm checks',
  state: 'completed',
  createdAt: '2030-01-01T10:00:00.000Z',
  startedAt: '2030-01-01T10:00:00.250Z',
  finishedAt: '2030-01-01T10:00:01.000Z',
  attempts: 1,
  error: null,
  ...over,
});

const job = (over: Partial<JobSummary> = {}): JobSummary => ({
  name: 'alarm checks',
  everySeconds: 60,
  perInstance: false,
  nextRunAt: '2999-01-01T10:01:00.000Z',
  failures24h: 0,
  deadLettered: 0,
  lastRun: run(),
  ...over,
});

let list: JobsList;
let hold: Promise<Answer> | null = null;

serveTestApi((_request, url) => {
  if (hold) return hold;
  if (url.pathname === '/api/v1/admin/jobs') return ok(list);
  return ok(null);
});

signedInForEachTest(['logs.view']);

const failedRun = run({
  job: 'licence full sweep',
  state: 'failed',
  createdAt: '2030-01-01T09:00:00.000Z',
  startedAt: '2030-01-01T09:00:05.000Z',
  finishedAt: '2030-01-01T09:00:09.000Z',
  attempts: 4,
  error: 'could not obtain lock on relation "devices"',
});

beforeEach(() => {
  hold = null;
  list = {
    runsHere: true,
    jobs: [
      job(),
      job({
        name: 'licence full sweep',
        everySeconds: 86_400,
        nextRunAt: '2000-01-01T00:00:00.000Z',
        failures24h: 4,
        deadLettered: 1,
        lastRun: failedRun,
      }),
      job({ name: 'mail retry', everySeconds: 0, nextRunAt: null, lastRun: null }),
    ],
    runs: [run(), failedRun],
  };
});

const open = () => renderPage({ path: '/admin/jobs', Component: JobsPage, at: '/admin/jobs' });

describe('Jobs', () => {
  it('lists each job with its period, last run, next run, failed tries and dead letters', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Jobs' })).toBeTruthy();
    const table = screen.getByRole('table', { name: jobsTexts.jobsCaption });
    const checks = (await within(table).findByText('alarm checks')).closest('tr')!;
    expect(within(checks).getByText('Every 1 min')).toBeTruthy();
    expect(within(checks).getByText('Succeeded')).toBeTruthy();
    expect(within(checks).getByText('01/01/2999 10:01:00', { exact: false })).toBeTruthy();
    const sweep = within(table).getByText('licence full sweep').closest('tr')!;
    expect(within(sweep).getByText('Every 1 day')).toBeTruthy();
    expect(within(sweep).getByText('Failed')).toBeTruthy();
    // A slot already begun without its run is due now.
    expect(within(sweep).getByText(jobsTexts.due)).toBeTruthy();
    const cells = within(sweep).getAllByRole('cell');
    expect(cells.at(-2)!.textContent).toBe('4');
    expect(cells.at(-1)!.textContent).toBe('1');
    const off = within(table).getByText('mail retry').closest('tr')!;
    expect(within(off).getByText(jobsTexts.off)).toBeTruthy();
    expect(within(off).getAllByText('N/A')).toHaveLength(2);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('lists the latest runs with their tries and the error of a failed one', async () => {
    open();
    const section = await screen.findByRole('region', { name: jobsTexts.runsTitle });
    const table = within(section).getByRole('table', { name: jobsTexts.runsCaption });
    const failed = (await within(table).findByText('licence full sweep')).closest('tr')!;
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('4')).toBeTruthy();
    expect(within(failed).getByText('could not obtain lock on relation "devices"')).toBeTruthy();
  });

  it('shows a spinner while loading, the empty texts without jobs, and says when this instance runs none', async () => {
    const held = heldAnswer();
    hold = held.answer;
    open();
    const table = await screen.findByRole('table', { name: jobsTexts.jobsCaption });
    expect(await within(table).findByRole('status')).toBeTruthy();
    hold = null;
    held.release(ok({ runsHere: false, jobs: [], runs: [] }));
    expect(await within(table).findByText(jobsTexts.empty)).toBeTruthy();
    expect(screen.getByText(jobsTexts.noRuns)).toBeTruthy();
    expect(screen.getByRole('note').textContent).toBe(jobsTexts.notHere);
  });

  it('lets the keyboard reach both tables, which scroll sideways on a narrow screen', async () => {
    const user = userEvent.setup();
    open();
    await screen.findAllByText('licence full sweep', { selector: 'td' });
    await user.tab();
    const reached: string[] = [];
    for (let i = 0; i < 20 && reached.length < 2; i++) {
      const label = document.activeElement?.getAttribute('aria-label');
      if (label === jobsTexts.jobsCaption || label === jobsTexts.runsCaption) reached.push(label);
      await user.tab();
    }
    expect(reached).toEqual([jobsTexts.jobsCaption, jobsTexts.runsCaption]);
  });
});

describe('formatPeriod', () => {
  it('says a period in its largest whole unit', () => {
    expect(formatPeriod(1)).toBe('Every 1 s');
    expect(formatPeriod(90)).toBe('Every 90 s');
    expect(formatPeriod(300)).toBe('Every 5 min');
    expect(formatPeriod(3_600)).toBe('Every 1 h');
    expect(formatPeriod(172_800)).toBe('Every 2 days');
  });
});
