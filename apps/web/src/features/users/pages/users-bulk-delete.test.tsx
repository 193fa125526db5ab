import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@app/contract/users';
import { buildUser, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { UsersPage } from './users-page.tsx';

/* Decision 055: picking users on User Management and deleting them in bulk. */

let users: User[] = [];
beforeEach(() => {
  users = Array.from({ length: 12 }, (_, i) => buildUser(i + 1));
});

const bulkPath = '/api/v1/admin/users/bulk-delete';
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/users/all') {
    const { rows, ...rest } = pageOf(users, {
      page: Number(url.searchParams.get('page')),
      limit: Number(url.searchParams.get('limit')),
    });
    return ok({ users: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/roles/all')
    return ok({ roles: [], totalPages: 1, total: 0, page: 1, limit: 10 });
  if (url.pathname === bulkPath) {
    const body = JSON.parse(request.body) as { ids?: string[] };
    const picked = body.ids ?? users.map((u) => u._id);
    const results = picked.map((id) => {
      const user = users.find((u) => u._id === id)!;
      // user1 stands for the signed-in admin here.
      if (user.userName === 'user1')
        return {
          _id: id,
          userName: 'user1',
          outcome: 'refused',
          reason: 'You cannot delete your own account',
        };
      users = users.filter((u) => u !== user);
      return { _id: id, userName: user.userName, outcome: 'done' };
    });
    const done = results.filter((r) => r.outcome === 'done').length;
    return ok({ results, done, refused: results.length - done }, `${done} done`);
  }
  return failure(404, 'Route not found');
});
const bulkBodies = () =>
  api.requests.filter((r) => r.url === bulkPath).map((r) => JSON.parse(r.body) as unknown);

const openUsers = async () => {
  renderPage({ path: '/admin/user-management', Component: UsersPage, at: '/admin/user-management' });
  await screen.findByText('user2');
};

describe('User Management bulk delete', { timeout: 30_000 }, () => {
  it("deletes the users picked after the spec's confirmation, lists each result, and refreshes the list", async () => {
    const user = userEvent.setup();
    await openUsers();
    for (const name of ['user1', 'user2', 'user3'])
      await user.click(screen.getByRole('checkbox', { name: `Select ${name}` }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(within(bar).getByRole('status').textContent).toBe('3 selected');
    await user.click(within(bar).getByRole('button', { name: 'Delete' }));

    const confirm = await screen.findByRole('dialog', { name: 'Remove Data' });
    expect(within(confirm).getByText('Are you sure you want to delete this?')).toBeTruthy();
    // The safe answer has focus first.
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'No' }));
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));

    const results = await screen.findByRole('dialog', { name: 'Delete: results' });
    expect(within(results).getByText('2 done, 1 refused')).toBeTruthy();
    expect(
      within(results)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual(['user1RefusedYou cannot delete your own account', 'user2Done', 'user3Done']);
    expect(bulkBodies()).toEqual([{ ids: [testId(1, 6), testId(2, 6), testId(3, 6)] }]);
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Select user2' })).toBeNull());
    expect(screen.getByRole('checkbox', { name: 'Select user1' })).toBeTruthy();
  });

  it('sends nothing when the confirmation is answered No', async () => {
    const user = userEvent.setup();
    await openUsers();
    await user.click(screen.getByRole('checkbox', { name: 'Select user2' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Data' })).getByRole('button', { name: 'No' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove Data' })).toBeNull());
    expect(bulkBodies()).toEqual([]);
    expect(screen.getByRole('region', { name: 'Selection' }).textContent).toContain('1 selected');
  });

  it('selects every user by keyboard: the page with Space, then all matching', async () => {
    const user = userEvent.setup();
    await openUsers();
    screen.getByRole('checkbox', { name: 'Select all on this page' }).focus();
    await user.keyboard(' ');
    expect(screen.getByRole('region', { name: 'Selection' }).textContent).toContain('10 selected');
    // The bar sits above the table: back a few stops from the header's box reaches its offer.
    const offer = screen.getByRole('button', { name: 'Select all 12 matching' });
    for (let i = 0; i < 5 && document.activeElement !== offer; i++) await user.tab({ shift: true });
    expect(document.activeElement).toBe(offer);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('region', { name: 'Selection' }).textContent).toContain(
      'All 12 matching selected',
    );
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Data' })).getByRole('button', { name: 'Yes' }),
    );
    await screen.findByRole('dialog', { name: 'Delete: results' });
    expect(bulkBodies()).toEqual([{ allMatching: {} }]);
  });
});
