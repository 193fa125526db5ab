import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Operations } from '@app/contract/dashboard';
import { failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import type { Answer } from '#web/test/http-server.ts';
import { OperationsSection } from './operations-section.tsx';

const days = Array.from({ length: 30 }, (_, i) => ({
  day: `2026-11-${String(i + 1).padStart(2, '0')}`,
  count: i === 29 ? 4 : i % 3,
}));
const everything: Operations = {
  highlights: {},
  machines: { online: 1200, offline: 35, neverSeen: 7, offlineMinutes: 15 },
  openAlarms: 3,
  licences: { grace: 4, lapsed: 1, lapsing: 12 },
  remote: { settingsDrift: 6, failedCommands: 2 },
  subscriptions: { pending: 5, failed: 2, expiringIn7Days: 9 },
  treatments: { today: 4, last30Days: 291, days },
};
let answer: Answer | Promise<Answer>;
const api = serveTestApi((_request, url) =>
  url.pathname === '/api/v1/admin/dashboard/operations' ? answer : failure(404, 'Not found'),
);
beforeEach(() => {
  answer = ok(everything);
});

const render = () =>
  renderPage({ path: '/admin/dashboard', Component: OperationsSection, at: '/admin/dashboard' });
const group = (name: string) => screen.getByRole('region', { name });

describe('the Operations section', () => {
  it('shows each figure as a link to its list filtered to it', async () => {
    render();
    const online = await screen.findByRole('link', { name: '1,200 Online' });
    expect(online.getAttribute('href')).toBe('/admin/device?online=online');
    const links = (name: string) =>
      within(group(name))
        .queryAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links('Machines')).toEqual([
      ['1,200 Online', '/admin/device?online=online'],
      ['35 Offline', '/admin/device?online=offline'],
      ['7 Never seen', '/admin/device?online=never'],
    ]);
    expect(links('Open alarms')).toEqual([['3 Open alarms', '/admin/alarms?state=open']]);
    expect(links('Licences')).toEqual([
      ['4 In grace', '/admin/device?licence=grace'],
      ['1 Lapsed', '/admin/device?licence=lapsed'],
      ['12 Lapsing within 14 days', '/admin/device?licenceEndsWithin=14'],
    ]);
    expect(links('Remote operations')).toEqual([
      ['6 Settings not applied', '/admin/device?settings=drift'],
      ['2 Failed commands, last 7 days', '/admin/device?commands=failed'],
    ]);
    expect(links('Subscriptions')).toEqual([
      ['5 Pending', '/admin/subscription-management?status=1'],
      ['2 Failed', '/admin/subscription-management?status=4'],
      ['9 Expiring in 7 days', '/admin/subscription-management?expiresWithin=7'],
    ]);
    expect(links('Treatments')).toEqual([
      ['4 Today', '/admin/treatments?from=2026-11-30&to=2026-11-30'],
      ['291 Last 30 days', '/admin/treatments?from=2026-11-01&to=2026-11-30'],
    ]);
    expect(api.queries('/api/v1/admin/dashboard/operations')).toHaveLength(1);
  });

  it('loads the chart lazily, with a table of the same figures for screen readers', async () => {
    render();
    const table = await screen.findByRole('table', { name: 'Treatments per day, last 30 days' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(rows.at(-1)!.textContent).toBe('2026-11-304');
    expect(group('Treatments').querySelectorAll('svg rect')).toHaveLength(30);
  });

  it('leaves out what the role may not see, and says so when nothing is left', async () => {
    answer = ok({ subscriptions: everything.subscriptions });
    render();
    expect(await screen.findByRole('region', { name: 'Subscriptions' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Machines' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Licences' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Treatments' })).toBeNull();
    cleanup();
    answer = ok({});
    render();
    expect(await screen.findByText('Your role shows no operations figures.')).toBeTruthy();
  });

  it('shows a loading state, then the figures; a link opens its list', async () => {
    const held = heldAnswer();
    answer = held.answer;
    const router = render();
    expect(await screen.findByRole('status')).toBeTruthy();
    held.release(ok(everything));
    await userEvent.click(await screen.findByRole('link', { name: '2 Failed' }));
    const { pathname, search } = router.state.location;
    expect(pathname + search).toBe('/admin/subscription-management?status=4');
  });

  it('says when the figures could not be loaded', async () => {
    answer = failure(500, 'Server error');
    render();
    expect(await screen.findByText('The operations figures could not be loaded.')).toBeTruthy();
  });
});
