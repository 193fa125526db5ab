import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildAccessLog, buildErrorLog, failure, logListOf, ok } from '#web/test/fixtures.ts';
import { headersOf, keptListPreferences, reorderAndHide } from '#web/test/list-preferences.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { LogsPage } from './logs-page.tsx';

const accessPath = '/api/v1/admin/access-logs/all';
const errorPath = '/api/v1/admin/error-logs/all';
const prefs = keptListPreferences('logs');
const api = serveTestApi((request, url) => {
  const answered = prefs.answer(request, url);
  if (answered) return answered;
  if (url.pathname === accessPath) return ok(logListOf([buildAccessLog(1)]));
  if (url.pathname === errorPath) return ok(logListOf([buildErrorLog(1)]));
  return failure(404, 'Route not found');
});

const openLogs = (at = '/admin/logs-management') => {
  const router = renderPage({ path: '/admin/logs-management', Component: LogsPage, at });
  return router;
};
const accessTable = async () => {
  const table = await screen.findByRole('table', { name: 'Access logs' });
  await within(table).findByText('GET /api/v1/admin/machine/1');
  return table;
};
const errorTable = async () => {
  await userEvent.click(screen.getByRole('tab', { name: 'Error Logs List' }));
  const table = await screen.findByRole('table', { name: 'Error logs' });
  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
  return table;
};

// Issue 17: both tabs keep one list, 'logs' (decisions 053 and 057).
describe('Admin Logs: kept page size, columns and views', { timeout: 20_000 }, () => {
  it('asks once, at the page size the admin kept, for both tabs, and keeps a new one', async () => {
    prefs.kept = { columns: null, pageSize: 25, sort: null };
    openLogs();
    await accessTable();
    await errorTable();
    expect(api.queries(accessPath).map((q) => q.get('limit'))).toEqual(['25']);
    expect(api.queries(errorPath).map((q) => q.get('limit'))).toEqual(['25']);
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '10');
    await waitFor(() => expect(prefs.kept).toMatchObject({ pageSize: 10 }));
  });

  it('shows the kept order in both tabs; a choice in one keeps the other tab’s own columns', async () => {
    prefs.kept = { columns: ['time', 'resource', 'userEmail', 'functionName'], pageSize: null, sort: null };
    openLogs();
    const access = await accessTable();
    expect(headersOf(access)).toEqual(['Sr No', 'Time', 'Resource', 'User']);
    await reorderAndHide({ moveUp: 'User', hide: 'Resource' });
    expect(headersOf(access)).toEqual(['Sr No', 'Time', 'User']);
    await waitFor(() => expect(prefs.kept).toMatchObject({ columns: ['time', 'userEmail', 'functionName'] }));
    // Resource and User are columns of both tabs: the error list follows; its Function Name stays.
    expect(headersOf(await errorTable())).toEqual(['Sr No', 'Time', 'User', 'Function Name']);
  });

  it('keeps the search in the URL, where a saved view or a link holds it', async () => {
    const router = openLogs('/admin/logs-management?search=machine&from=2025-03-01');
    await accessTable();
    expect((screen.getByLabelText('Search logs') as HTMLInputElement).value).toBe('machine');
    expect(api.queries(accessPath).map((q) => [q.get('search'), q.get('from')])).toEqual([
      ['machine', '2025-03-01'],
    ]);
    await userEvent.clear(screen.getByLabelText('Search logs'));
    await userEvent.type(screen.getByLabelText('Search logs'), 'error');
    await waitFor(() => expect(router.state.location.search).toBe('?search=error&from=2025-03-01'));
    expect(screen.getByRole('button', { name: 'Views' })).toBeTruthy();
  });
});
