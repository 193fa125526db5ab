import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApiBaseUrl } from '../lib/api-client.ts';
import { startTestServer, type Answer, type Recorded } from '../test/http-server.ts';
import { renderPage } from '../test/render-router.tsx';
import { LogsTabs } from './logs-tabs.tsx';

const access = (i: number) => ({
  _id: String(i),
  resource: `GET /api/v1/admin/machine/${i}`,
  location: '10.0.0.1',
  time: '2025-03-04T10:00:00.000Z',
  createdTime: '2025-03-04T10:00:00.000Z',
  userEmail: `user${i}@example.com`,
  user: { userId: `u${i}`, email: `user${i}@example.com` },
  machineNumber: 'MN-1',
  statusCode: 200,
  recordKind: null,
  recordId: null,
});
const list = (logs: unknown[], nextCursor: string | null) => ({
  code: 200,
  msg: 'Success',
  data: {
    logs,
    total_pages: logs.length ? 3 : 1,
    total: logs.length ? 25 : 0,
    totalIsEstimate: false,
    page: 1,
    limit: 10,
    nextCursor,
  },
});

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer((request: Recorded): Answer => {
    const url = new URL(request.url, 'http://x');
    if (url.searchParams.get('search') === 'nothing') return { status: 200, body: list([], null) };
    if (url.pathname === '/api/v1/admin/access-logs/all') {
      return url.searchParams.get('after') === 'cursor-1'
        ? { status: 200, body: list([access(3)], 'cursor-2') }
        : { status: 200, body: list([access(1), access(2)], 'cursor-1') };
    }
    if (url.pathname === '/api/v1/admin/error-logs/all') return { status: 200, body: list([], null) };
    return { status: 404, body: { code: 404, msg: 'Route not found', data: null } };
  });
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

// Under a router: the day range lives in the URL.
function renderTabs(props: { userId?: string; machineNumber?: string } = {}, at = '/logs') {
  return renderPage({ path: '/logs', Component: () => <LogsTabs {...props} />, at });
}

const logRequests = (path: string) =>
  server.requests.filter((r) => r.url.startsWith(path)).map((r) => new URL(r.url, 'http://x').searchParams);

describe('LogsTabs', () => {
  it('shows the access logs of one machine and reads the next page from where the last one ended', async () => {
    renderTabs({ machineNumber: 'MN-1' });
    const table = await screen.findByRole('table', { name: 'Access logs' });
    expect(await within(table).findByText('GET /api/v1/admin/machine/1')).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sr No', 'Resource', 'What Happened', 'Location', 'User', 'Time']);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(logRequests('/api/v1/admin/access-logs/all')[0]!.get('machineNumber')).toBe('MN-1');
    expect(logRequests('/api/v1/admin/error-logs/all')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await within(table).findByText('GET /api/v1/admin/machine/3')).toBeTruthy();
    const second = logRequests('/api/v1/admin/access-logs/all').at(-1)!;
    expect([second.get('page'), second.get('after'), second.get('machineNumber')]).toEqual([
      '2',
      'cursor-1',
      'MN-1',
    ]);
    // Sr No runs on across pages.
    expect(within(table).getByText('11')).toBeTruthy();
    expect(
      within(screen.getByRole('navigation', { name: 'Access logs pages' })).getByRole('combobox'),
    ).toHaveProperty('value', '10');
    expect(
      within(screen.getByRole('navigation', { name: 'Access logs pages' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['10', '25']);
  });

  it('searches both tabs with one box, from page 1, and shows each empty text', async () => {
    renderTabs();
    await screen.findByText('GET /api/v1/admin/machine/1');
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText('GET /api/v1/admin/machine/3');
    await userEvent.type(screen.getByLabelText('Search logs'), 'nothing');
    expect(await screen.findByText('No Access Logs found.', {}, { timeout: 3000 })).toBeTruthy();
    const searched = logRequests('/api/v1/admin/access-logs/all').filter((p) => p.get('search'));
    // Debounced: one request for the whole word, back on page 1 without a cursor.
    expect(searched.map((p) => [p.get('search'), p.get('page'), p.get('after')])).toEqual([
      ['nothing', '1', null],
    ]);

    await userEvent.click(screen.getByRole('tab', { name: 'Error Logs List' }));
    expect(await screen.findByText('No Error Logs found.')).toBeTruthy();
    await waitFor(() =>
      expect(logRequests('/api/v1/admin/error-logs/all').at(-1)!.get('search')).toBe('nothing'),
    );
    expect(screen.getByLabelText('Search logs')).toHaveProperty('value', 'nothing');
  });

  it('keeps a day range in the URL and sends it with both lists; a reversed range is named', async () => {
    const router = renderTabs({}, '/logs?from=2026-11-01');
    await screen.findByRole('table', { name: 'Access logs' });
    await waitFor(() =>
      expect(logRequests('/api/v1/admin/access-logs/all').at(-1)?.get('from')).toBe('2026-11-01'),
    );
    // A date field takes its value whole (no keystrokes in a date input).
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-11-01&to=2026-11-20'));
    await waitFor(() =>
      expect(Object.fromEntries(logRequests('/api/v1/admin/access-logs/all').at(-1)!)).toMatchObject({
        from: '2026-11-01',
        to: '2026-11-20',
        page: '1',
      }),
    );
    await userEvent.click(screen.getByRole('tab', { name: 'Error Logs List' }));
    await waitFor(() =>
      expect(logRequests('/api/v1/admin/error-logs/all').at(-1)!.get('to')).toBe('2026-11-20'),
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-12-01' } });
    expect((await screen.findByRole('alert')).textContent).toBe('From must not be after To');
    expect(screen.getByLabelText('From').getAttribute('aria-invalid')).toBe('true');
  });
});
