import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest } from '#web/test/session.ts';
import { SavedViewsMenu } from './saved-views-menu.tsx';

signedInForEachTest();

const view = (n: number, over: object) => ({
  _id: `v${n}`,
  list: 'devices',
  name: `View ${n}`,
  query: `search=s${n}`,
  shared: false,
  ownerName: 'admin',
  mine: true,
  createdAt: '2025-03-01T10:30:00.000Z',
  ...over,
});

const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/views/v1' && request.method === 'DELETE')
    return ok({ _id: 'v1' }, 'View deleted');
  if (url.pathname === '/api/v1/admin/views')
    return ok({
      views: [
        view(1, { name: 'Mine', shared: true }),
        view(2, { name: 'Theirs', mine: false, ownerName: 'eve' }),
      ],
    });
  return ok({ lists: {} });
});

function Page() {
  return (
    <SavedViewsMenu
      columns={{
        list: 'devices',
        choices: [{ key: 'a', header: 'A' }],
        visible: ['a'],
        setVisible: () => {},
      }}
    />
  );
}

describe('SavedViewsMenu', () => {
  it('lists the views once opened, and deletes an own one after asking, the safe answer focused', async () => {
    renderPage({ path: '/admin/device', Component: Page, at: '/admin/device' });
    const button = screen.getByRole('button', { name: 'Views' });
    await userEvent.click(button);
    const list = await screen.findByRole('list', { name: 'Saved views' });
    expect(
      within(list)
        .getByRole('link', { name: /^Mine\W*\(shared\)$/ })
        .getAttribute('href'),
    ).toBe('/admin/device?search=s1');
    expect(within(list).getByRole('link', { name: /^Theirs\W*\(shared by eve\)$/ })).toBeTruthy();
    expect(within(list).queryByRole('button', { name: 'Delete view Theirs' })).toBeNull();

    await userEvent.click(within(list).getByRole('button', { name: 'Delete view Mine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Data' });
    expect(within(dialog).getByText('Delete the view "Mine"?')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'No' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('View deleted')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The Delete button left with the panel: focus goes back to Views, not to the page.
    expect(document.activeElement).toBe(button);
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/v1/admin/views/v1',
    ]);
  });

  it('opens the save dialog from the panel, and closes it on Cancel', async () => {
    renderPage({ path: '/admin/device', Component: Page, at: '/admin/device?search=x&page=2' });
    await userEvent.click(screen.getByRole('button', { name: 'Views' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Save current view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save View' });
    expect(screen.getByRole('button', { name: 'Views' }).getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Views' }));
  });
});
