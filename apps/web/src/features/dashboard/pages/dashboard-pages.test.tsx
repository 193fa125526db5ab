import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Operations } from '@app/contract/dashboard';
import { failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { DashboardPage } from './dashboard-page.tsx';
import { WidgetsPage } from './widgets-page.tsx';

let highlights: Operations['highlights'];
serveTestApi((_request, url) =>
  url.pathname === '/api/v1/admin/dashboard/operations'
    ? ok({ highlights, machines: { online: 1, offline: 0, neverSeen: 0, offlineMinutes: 15 } })
    : failure(404, 'Not found'),
);
beforeEach(() => {
  highlights = { newOrders: 1234, newCustomers: 5, userRegistrations: 2, uniqueVisitors: 3 };
});

describe('Dashboard', () => {
  const renderDashboard = () =>
    renderPage({ path: '/admin/dashboard', Component: DashboardPage, at: '/admin/dashboard' });
  const tiles = () =>
    within(screen.getAllByRole('list')[0]!)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
  afterEach(() => {
    Reflect.deleteProperty(window, 'matchMedia');
  });

  it("shows the spec's four tiles with the real figures, each a link to its list", async () => {
    renderDashboard();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    await screen.findByRole('link', { name: /1,234\s*New Orders/ });
    expect(tiles()).toEqual([
      ['1,234New Orders', '/admin/subscription-management'],
      ['5New Customer', '/admin/subscription-management'],
      ['2User Registrations', '/admin/user-management'],
      ['3Unique Visitors', '/admin/logs-management'],
    ]);
  });

  it('says what a tile counts in a tooltip, on focus too, and Escape hides it', async () => {
    const user = userEvent.setup();
    renderDashboard();
    const orders = await screen.findByRole('link', { name: /New Orders/ });
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.tab();
    while (document.activeElement !== orders) await user.tab();
    const tip = screen.getByRole('tooltip');
    expect(tip.textContent).toBe('Payment links created in the last 30 days');
    expect(orders.getAttribute('aria-describedby')).toBe(tip.id);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(document.activeElement).toBe(orders);
  });

  it('shows only the tiles the role may see', async () => {
    highlights = { userRegistrations: 2 };
    renderDashboard();
    await screen.findByRole('link', { name: /2\s*User Registrations/ });
    expect(tiles()).toEqual([['2User Registrations', '/admin/user-management']]);
  });

  it('puts the operations figures first on a phone', async () => {
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({
        matches: query.includes('max-width'),
        addEventListener: () => {},
        removeEventListener: () => {},
      }),
    });
    renderDashboard();
    const operations = await screen.findByRole('heading', { name: 'Operations' });
    const orders = await screen.findByRole('link', { name: /New Orders/ });
    expect(operations.compareDocumentPosition(orders) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('Widgets', () => {
  function renderWidgets() {
    renderPage({ path: '/admin/widgets', Component: WidgetsPage, at: '/admin/widgets' });
  }

  it('shows labelled progress bars and the five badges', async () => {
    renderWidgets();
    expect(await screen.findByRole('heading', { level: 1, name: 'Widgets' })).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Devices online' });
    expect(bar.getAttribute('aria-valuenow')).toBe('80');
    expect(screen.getAllByRole('progressbar')).toHaveLength(3);
    const badges = screen.getByRole('region', { name: 'Badges' });
    for (const label of ['Active', 'Inactive', 'Pending', 'Failed', 'Info'])
      expect(within(badges).getByText(label)).toBeTruthy();
  });

  it('shows each toast type from its button, and a loading toast that turns into Done', async () => {
    renderWidgets();
    await userEvent.click(await screen.findByRole('button', { name: 'Success' }));
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Error' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Loading' }));
    expect(await screen.findByText('Working on it...')).toBeTruthy();
    expect(await screen.findByText('Done', {}, { timeout: 5000 })).toBeTruthy();
  });
});
