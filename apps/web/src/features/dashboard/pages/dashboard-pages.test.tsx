import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderPage } from '#web/test/render-router.tsx';
import { DashboardPage } from './dashboard-page.tsx';
import { WidgetsPage } from './widgets-page.tsx';

describe('Dashboard', () => {
  it('shows the four sample tiles of the spec with their values', async () => {
    renderPage({ path: '/admin/dashboard', Component: DashboardPage, at: '/admin/dashboard' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    const tiles = within(screen.getAllByRole('list')[0]!)
      .getAllByRole('listitem')
      .map((tile) => tile.textContent);
    expect(tiles).toEqual(['150New Orders', '53New Customer', '44User Registrations', '65Unique Visitors']);
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
