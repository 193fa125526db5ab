import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@app/contract/users';
import { buildUser, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { headersOf, reorderAndHide } from '#web/test/list-preferences.ts';
import { UsersPage } from './users-page.tsx';

let users: User[] = [];
let hold: Promise<Answer> | null = null;
// The admin's kept list preferences (decision 053), as the server answers them.
let keptUsersPrefs: object | undefined;

const api = serveTestApi((request, url) => {
  if (hold) return hold;
  if (url.pathname === '/api/v1/admin/preferences')
    return ok({ lists: keptUsersPrefs ? { users: keptUsersPrefs } : {}, colorMode: 'system' });
  if (url.pathname === '/api/v1/admin/preferences/lists/users') {
    keptUsersPrefs = JSON.parse(request.body) as object;
    return ok(keptUsersPrefs, 'Preferences saved');
  }
  if (url.pathname === '/api/v1/admin/users/all') {
    const page = Number(url.searchParams.get('page'));
    const limit = Number(url.searchParams.get('limit'));
    const search = url.searchParams.get('search')?.toLowerCase();
    const found = search ? users.filter((u) => u.userName.toLowerCase().includes(search)) : users;
    const { rows, ...rest } = pageOf(found, { page, limit });
    return ok({ users: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/roles/all')
    return ok({ roles: [], totalPages: 1, total: 0, page: 1, limit: 10 });
  const user = users.find((u) => url.pathname === `/api/v1/admin/users/${u._id}`);
  if (user && request.method === 'DELETE') {
    users = users.filter((u) => u !== user);
    return ok(null, 'User deleted successfully');
  }
  return failure(404, 'Route not found');
});

beforeEach(() => {
  hold = null;
  keptUsersPrefs = undefined;
  users = Array.from({ length: 11 }, (_, i) => buildUser(i + 1));
});

const openUsers = (at = '/admin/user-management') =>
  renderPage({ path: '/admin/user-management', Component: UsersPage, at });

describe('User Management', () => {
  it('searches the users, says how many it found, and keeps the search in the URL (issue 35 item 7)', async () => {
    const user = userEvent.setup();
    openUsers();
    expect(await screen.findByText('11 users')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'user1');
    // user1, user10, user11
    expect(await screen.findByText('3 users')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Users' });
    expect(within(table).queryByText('user2')).toBeNull();
    await waitFor(() => expect(api.requests.some((r) => r.url.includes('search=user1'))).toBe(true));
  });

  it('lists the users with the spec columns, the role name and the pager', async () => {
    users[0] = buildUser(1, { phonenumber: null, phone: null, role: null });
    openUsers();
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('user2');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
      // First the selection column (decision 055): its header is the page's checkbox.
    ).toEqual(['', 'Sr No.', 'User Name', 'Email', 'Phone No.', 'Role', 'Actions']);
    const cells = (n: number) =>
      within(within(table).getAllByRole('row')[n]!)
        .getAllByRole('cell')
        .slice(1, 6)
        .map((c) => c.textContent);
    expect(cells(2)).toEqual(['2', 'user2', 'user2@example.com', '5553000002', 'Role 1']);
    // No phone and no role read N/A.
    expect(cells(1)).toEqual(['1', 'user1', 'user1@example.com', 'N/A', 'N/A']);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    const query = api.queries('/api/v1/admin/users/all')[0]!;
    expect([query.get('page'), query.get('limit')]).toEqual(['1', '10']);
  });

  it('shows a spinner while loading and the empty text without users', async () => {
    users = [];
    const held = heldAnswer();
    hold = held.answer;
    openUsers();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(await within(table).findByRole('status')).toBeTruthy();
    hold = null;
    held.release(ok({ users: [], totalPages: 0, total: 0, page: 1, limit: 10 }));
    expect(await within(table).findByText('No User found.')).toBeTruthy();
  });

  it('does not offer to edit a protected user, and says why', async () => {
    users = [buildUser(1, { isDeletable: false }), buildUser(2)];
    openUsers();
    const locked = await screen.findByRole('button', { name: 'Edit user1' });
    expect((locked as HTMLButtonElement).disabled).toBe(true);
    expect(locked.getAttribute('title')).toBe('This user is protected and cannot be edited');
    expect((screen.getByRole('button', { name: 'Edit user2' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('deletes a user after Yes and refreshes the list', async () => {
    users = [buildUser(1), buildUser(2)];
    openUsers();
    await screen.findByText('user2');
    await userEvent.click(screen.getByRole('button', { name: 'Delete user2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Data' });
    expect(within(dialog).getByText('Are you sure you want to delete this?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('User deleted successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('user2')).toBeNull());
    expect(api.requests.find((r) => r.method === 'DELETE')!.url).toBe(`/api/v1/admin/users/${testId(2, 6)}`);
  });

  it("opens a user's page from the eye button", async () => {
    users = [buildUser(1)];
    openUsers();
    await userEvent.click(await screen.findByRole('link', { name: 'View user1' }));
    expect(await screen.findByText(`Navigated to /admin/view-user/${testId(1, 6)}`)).toBeTruthy();
  });

  it('opens at the page size the admin kept on the server, asking once, and keeps a new one', async () => {
    keptUsersPrefs = { columns: null, pageSize: 25, sort: null };
    openUsers();
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('user11');
    const lists = api.queries('/api/v1/admin/users/all');
    expect(lists.map((q) => q.get('limit'))).toEqual(['25']);
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '10');
    await waitFor(() => expect(keptUsersPrefs).toMatchObject({ pageSize: 10 }));
  });

  it('shows the columns in the order the admin kept, and keeps a new order and a hidden column', async () => {
    keptUsersPrefs = { columns: ['email', 'userName', 'role'], pageSize: null, sort: null };
    openUsers();
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('user1');
    expect(headersOf(table)).toEqual(['Sr No.', 'Email', 'User Name', 'Role', 'Actions']);
    await reorderAndHide({ moveUp: 'Role', hide: 'Email' });
    expect(headersOf(table)).toEqual(['Sr No.', 'Role', 'User Name', 'Actions']);
    await waitFor(() => expect(keptUsersPrefs).toMatchObject({ columns: ['role', 'userName'] }));
  });
});
