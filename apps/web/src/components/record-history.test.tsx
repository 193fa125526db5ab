import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { recordHistoryMessages, type HistoryEntry } from '@app/contract/record-history';
import { failure, ok, testId } from '../test/fixtures.ts';
import { heldAnswer, serveTestApi } from '../test/test-api.ts';
import { renderPage } from '../test/render-router.tsx';
import { RecordHistorySection } from './record-history.tsx';

const entry = (n: number, over: Partial<HistoryEntry>): HistoryEntry => ({
  _id: String(n),
  at: '2025-03-04T10:00:00.000Z',
  field: 'city',
  oldValue: 'Berlin',
  newValue: 'Potsdam',
  oldLabel: null,
  newLabel: null,
  secret: false,
  masked: false,
  actor: { userId: testId(1), email: 'admin@example.com' },
  sessionId: testId(2),
  requestId: 'req-7',
  reason: null,
  ...over,
});
const historyOf = (history: HistoryEntry[], page = 1) =>
  ok({ history, totalPages: 2, total: history.length + 10, page, limit: 10 });

const device = testId(9);
const path = `/api/v1/admin/machine/${device}/history`;
let answer: () => ReturnType<typeof ok> | Promise<ReturnType<typeof ok>> = () => historyOf([]);
const api = serveTestApi((_request, url) =>
  url.pathname === path ? answer() : failure(404, 'Route not found'),
);

const renderSection = (kind: 'device' | 'role' = 'device') =>
  renderPage({
    path: '/record',
    Component: () => <RecordHistorySection kind={kind} path={path} />,
    at: '/record',
  });

describe('RecordHistorySection', () => {
  it('shows each change as old → new with the field, who, when and why, after a loading state', async () => {
    const held = heldAnswer();
    answer = () => held.answer;
    renderSection();
    const section = screen.getByRole('region', { name: 'History' });
    expect(within(section).getByRole('status')).toBeTruthy();
    held.release(
      historyOf([
        entry(1, {}),
        entry(2, { field: 'status', oldValue: 2, newValue: 1, reason: 'Machine sent for repair' }),
        entry(3, { field: 'address', oldValue: null, newValue: 'Unter den Linden 1', actor: null }),
      ]),
    );
    await within(section).findByText('Potsdam');
    const table = within(section).getByRole('table', { name: 'Change history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['1', '04/03/2025 10:00:00', 'City', 'From Berlin →  to Potsdam', 'admin@example.com', 'N/A'],
      [
        '2',
        '04/03/2025 10:00:00',
        'Status',
        'From Active →  to Inactive',
        'admin@example.com',
        'Machine sent for repair',
      ],
      ['3', '04/03/2025 10:00:00', 'Address', 'From N/A →  to Unter den Linden 1', 'System', 'N/A'],
    ]);
    // A diff: the old value deleted, the new one inserted.
    expect(rows[0]!.querySelector('del')?.textContent).toBe('Berlin');
    expect(rows[0]!.querySelector('ins')?.textContent).toBe('Potsdam');
    expect(api.queries(path)[0]!.get('page')).toBe('1');
  });

  it('says a secret changed without any value, and a list change as what was added and removed', async () => {
    answer = () =>
      historyOf([
        entry(1, { field: 'password', oldValue: null, newValue: null, secret: true }),
        entry(2, {
          field: 'permissions',
          oldValue: ['devices.view', 'logs.view'],
          newValue: ['devices.view', 'users.manage'],
        }),
      ]);
    renderSection('role');
    await screen.findByText('users.manage');
    const table = screen.getByRole('table', { name: 'Change history' });
    const [secret, list] = within(table).getAllByRole('row').slice(1);
    expect(within(secret!).getByText(recordHistoryMessages.secretChanged)).toBeTruthy();
    expect(list!.querySelector('ins')?.textContent).toBe('users.manage');
    expect(list!.querySelector('del')?.textContent).toBe('logs.view');
  });

  it('says so when nothing was recorded', async () => {
    answer = () => historyOf([]);
    renderSection();
    expect(await screen.findByText(recordHistoryMessages.empty)).toBeTruthy();
  });

  it('says when the values are masked, and shows them as the server masked them', async () => {
    answer = () =>
      historyOf([
        entry(1, {
          field: 'email',
          oldValue: 'j•••@example.com',
          newValue: 'j•••@example.org',
          masked: true,
        }),
      ]);
    renderSection();
    expect(await screen.findByText(recordHistoryMessages.masked)).toBeTruthy();
    expect(screen.getByText('j•••@example.org')).toBeTruthy();
  });

  it('pages by keyboard', async () => {
    answer = () => historyOf([entry(1, {})]);
    renderSection();
    await screen.findByText('Potsdam');
    const next = screen.getByRole('button', { name: /Next/ });
    next.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(api.queries(path).at(-1)!.get('page')).toBe('2'));
  });

  it('shows a failure with Try again, which asks again', async () => {
    let calls = 0;
    answer = () => (++calls === 1 ? failure(500, 'Database unavailable') : historyOf([entry(1, {})]));
    renderSection();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(screen.getByText('Database unavailable')).toBeTruthy();
    retry.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Potsdam')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
