import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Alarm } from '@app/contract/alarms';
import { formatDateTime } from '#web/lib/format.ts';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { AlarmsPage } from './alarms-page.tsx';

const buildAlarm = (n: number, over: Partial<Alarm> = {}): Alarm => ({
  _id: testId(n, 9),
  deviceId: testId(n),
  machineNumber: `MN-${1000 + n}`,
  serialNumber: `SN-${n}`,
  rule: 'offline',
  detail: { lastSeenAt: '2030-01-02T03:04:05.000Z' },
  openedAt: `2030-01-03T0${n % 10}:00:00.000Z`,
  acknowledgedAt: null,
  acknowledgedBy: null,
  resolvedAt: null,
  resolvedBy: null,
  ...over,
});

let alarms: Alarm[] = [];
let hold: Promise<Answer> | null = null;

const api = serveTestApi((request, url) => {
  if (hold) return hold;
  if (url.pathname === '/api/v1/admin/alarms') {
    const state = url.searchParams.get('state');
    const rule = url.searchParams.get('rule');
    const matching = alarms.filter(
      (a) => (state === 'past') === (a.resolvedAt !== null) && (!rule || a.rule === rule),
    );
    const { rows, ...rest } = pageOf(matching, {
      page: Number(url.searchParams.get('page')),
      limit: Number(url.searchParams.get('limit')),
    });
    return ok({ alarms: rows, ...rest });
  }
  const acted = /^\/api\/v1\/admin\/alarms\/([^/]+)\/(acknowledge|resolve)$/.exec(url.pathname);
  const alarm = alarms.find((a) => a._id === acted?.[1]);
  if (acted && alarm && request.method === 'POST') {
    const at = '2030-01-04T10:00:00.000Z';
    const changed =
      acted[2] === 'acknowledge'
        ? { ...alarm, acknowledgedAt: at, acknowledgedBy: 'admin@example.com' }
        : { ...alarm, resolvedAt: at, resolvedBy: 'admin@example.com' };
    alarms = alarms.map((a) => (a === alarm ? changed : a));
    return ok(changed, acted[2] === 'acknowledge' ? 'Alarm acknowledged' : 'Alarm resolved');
  }
  return failure(404, 'Not found');
});

beforeEach(() => {
  hold = null;
  alarms = [
    buildAlarm(1),
    buildAlarm(2, { rule: 'app-version', detail: { versionCode: 12, minimum: 40 } }),
    buildAlarm(3, {
      rule: 'error-burst',
      detail: { errors: 60, threshold: 50 },
      resolvedAt: '2030-01-03T09:30:00.000Z',
    }),
  ];
  startSession(buildAdminProfile(['devices.view', 'devices.edit']), 'a.b.c');
});

const open = (at = '/admin/alarms') => renderPage({ path: '/admin/alarms', Component: AlarmsPage, at });

describe('Alarms', () => {
  it('lists the open alarms with machine, rule, what was seen and status, in the Open tab', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Alarms' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Open alarms' });
    await within(table).findByText('MN-1001');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sr No', 'Machine Number', 'Rule', 'Detail', 'Opened', 'Status', 'Acknowledged By', 'Action']);
    const first = within(table).getAllByRole('row')[1]!;
    expect(within(first).getByRole('link', { name: 'MN-1001' }).getAttribute('href')).toBe(
      `/admin/device-details/${testId(1)}`,
    );
    expect(first.textContent).toContain('Offline too long');
    expect(first.textContent).toContain(`Quiet since ${formatDateTime('2030-01-02T03:04:05.000Z')}`);
    expect(first.textContent).toContain('Open');
    expect(within(table).getByText('Runs version 12; the minimum supported is 40')).toBeTruthy();
    expect(within(table).queryByText('MN-1003')).toBeNull();
    expect(screen.getByRole('tab', { name: 'Open', selected: true })).toBeTruthy();
    expect(api.queries('/api/v1/admin/alarms')[0]!.get('state')).toBe('open');
  });

  it('reads the tab and the rule from the URL, and keeps a change of either in it', async () => {
    const router = open('/admin/alarms?state=past&rule=error-burst');
    const table = await screen.findByRole('table', { name: 'Past alarms' });
    await within(table).findByText('MN-1003');
    expect(within(table).getByText('By itself')).toBeTruthy();
    const query = api.queries('/api/v1/admin/alarms').at(-1)!;
    expect([query.get('state'), query.get('rule')]).toEqual(['past', 'error-burst']);
    expect((screen.getByLabelText('Rule') as HTMLSelectElement).value).toBe('error-burst');

    await userEvent.selectOptions(screen.getByLabelText('Rule'), 'All rules');
    await userEvent.click(screen.getByRole('tab', { name: 'Open' }));
    await screen.findByText('MN-1001');
    expect(router.state.location.search).toBe('');
    await userEvent.selectOptions(screen.getByLabelText('Rule'), 'App version below minimum');
    await waitFor(() => expect(screen.queryByText('MN-1001')).toBeNull());
    expect(router.state.location.search).toBe('?rule=app-version');
    expect(screen.getByText('MN-1002')).toBeTruthy();
  });

  it('shows a spinner while the list loads and the empty text when nothing is open', async () => {
    alarms = [];
    const held = heldAnswer();
    hold = held.answer;
    open();
    const table = await screen.findByRole('table', { name: 'Open alarms' });
    expect(await within(table).findByRole('status')).toBeTruthy();
    hold = null;
    held.release(ok({ alarms: [], totalPages: 1, total: 0, page: 1, limit: 10 }));
    expect(await within(table).findByText('No open alarms.')).toBeTruthy();
  });

  it('acknowledges an alarm only after the confirmation, and shows who did', async () => {
    open();
    await screen.findByText('MN-1001');
    const acknowledge = () =>
      userEvent.click(screen.getByRole('button', { name: 'Acknowledge Offline too long on MN-1001' }));
    await acknowledge();
    let dialog = await screen.findByRole('dialog', { name: 'Acknowledge alarm' });
    expect(dialog.textContent).toContain('Acknowledge "Offline too long" on MN-1001?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await acknowledge();
    dialog = await screen.findByRole('dialog', { name: 'Acknowledge alarm' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText('Alarm acknowledged')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'POST')!.url).toBe(
      `/api/v1/admin/alarms/${testId(1, 9)}/acknowledge`,
    );
    expect(await screen.findByText('admin@example.com')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Acknowledge Offline too long on MN-1001' })).toBeNull();
  });

  it('resolves an alarm after the confirmation, and it leaves the open list', async () => {
    open();
    await screen.findByText('MN-1002');
    await userEvent.click(
      screen.getByRole('button', { name: 'Resolve App version below minimum on MN-1002' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Resolve alarm' });
    expect(dialog.textContent).toContain('the next check opens a new alarm');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Alarm resolved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('MN-1002')).toBeNull());
  });

  it("shows an alarm's history, and offers no action to an admin who may only look", async () => {
    startSession(buildAdminProfile(['devices.view']), 'a.b.c');
    alarms = [
      buildAlarm(4, { acknowledgedAt: '2030-01-03T05:00:00.000Z', acknowledgedBy: 'ops@example.com' }),
    ];
    open();
    await screen.findByText('MN-1004');
    expect(screen.queryByRole('button', { name: /^Acknowledge/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Resolve/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'History of Offline too long on MN-1004' }));
    const dialog = await screen.findByRole('dialog', { name: 'History of "Offline too long" on MN-1004' });
    const items = within(dialog).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      `${formatDateTime(alarms[0]!.openedAt)}Opened: Quiet since ${formatDateTime('2030-01-02T03:04:05.000Z')}`,
      `${formatDateTime('2030-01-03T05:00:00.000Z')}Acknowledged by ops@example.com`,
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
