import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '#web/lib/format.ts';
import { buildAccessLog, buildErrorLog, failure, logListOf, ok } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { LogsPage } from './logs-page.tsx';

const accessPath = '/api/v1/admin/access-logs/all';
const errorPath = '/api/v1/admin/error-logs/all';
let hold: Promise<Answer> | null = null;

const api = serveTestApi((_request, url) => {
  // Only the list is held: the kept page size it waits for is read first.
  if (hold && url.pathname === accessPath) return hold;
  const none = url.searchParams.get('search') === 'nothing';
  if (url.pathname === accessPath) return ok(logListOf(none ? [] : [buildAccessLog(1), buildAccessLog(2)]));
  if (url.pathname === errorPath) return ok(logListOf(none ? [] : [buildErrorLog(1)]));
  return failure(404, 'Route not found');
});

beforeEach(() => {
  hold = null;
});

const openLogs = () =>
  renderPage({ path: '/admin/logs-management', Component: LogsPage, at: '/admin/logs-management' });

describe('Admin Logs', () => {
  it("shows everyone's access logs with the spec columns, unfiltered", async () => {
    openLogs();
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Logs' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Access logs' });
    await within(table).findByText('GET /api/v1/admin/machine/1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sr No', 'Resource', 'What Happened', 'Location', 'User', 'Time']);
    expect(
      within(within(table).getAllByRole('row')[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '1',
      'GET /api/v1/admin/machine/1',
      // Not one of the API's route patterns: no words for it.
      'N/A',
      '10.0.0.1',
      'user1@example.com',
      formatDateTime(buildAccessLog(1).time),
    ]);
    const query = api.queries(accessPath)[0]!;
    expect(query.has('userId') || query.has('machineNumber')).toBe(false);
  });

  it('shows a spinner while the logs load', async () => {
    const held = heldAnswer();
    hold = held.answer;
    openLogs();
    const table = await screen.findByRole('table', { name: 'Access logs' });
    expect(await within(table).findByRole('status')).toBeTruthy();
    // The list is asked for once the kept page size is read: release its answer only then.
    await waitFor(() => expect(api.queries(accessPath)).toHaveLength(1));
    hold = null;
    held.release(ok(logListOf([buildAccessLog(3)])));
    expect(await within(table).findByText('GET /api/v1/admin/machine/3')).toBeTruthy();
  });

  it('searches both lists with one box and shows their empty texts', async () => {
    openLogs();
    await screen.findByText('GET /api/v1/admin/machine/1');
    await userEvent.type(screen.getByLabelText('Search logs'), 'nothing');
    expect(await screen.findByText('No Access Logs found.')).toBeTruthy();
    expect(api.queries(accessPath).at(-1)!.get('search')).toBe('nothing');

    await userEvent.click(screen.getByRole('tab', { name: 'Error Logs List' }));
    expect(await screen.findByText('No Error Logs found.')).toBeTruthy();
    await waitFor(() => expect(api.queries(errorPath).at(-1)!.get('search')).toBe('nothing'));
  });

  it('shows the error logs with their function name and message on the second tab', async () => {
    openLogs();
    await userEvent.click(await screen.findByRole('tab', { name: 'Error Logs List' }));
    const table = await screen.findByRole('table', { name: 'Error logs' });
    await within(table).findByText('Failure 1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sr No', 'Resource', 'Function Name', 'Message', 'User', 'Time']);
    expect(within(table).getByText('handler1')).toBeTruthy();
  });
});
