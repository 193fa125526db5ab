import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { buildUser, failure, ok, pageOf } from '#web/test/fixtures.ts';
import { headersOf, keptListPreferences, reorderAndHide } from '#web/test/list-preferences.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { UsersPage } from './users-page.tsx';

/*
 * Issue 17 item 3: Export CSV asks for the columns the admin shows, in the order they put them
 * (decision 057), keyed as the table's columns; the server writes exactly those (export-columns.ts).
 */

signedInForEachTest();

const prefs = keptListPreferences('users');
const api = serveTestApi((request, url) => {
  const answered = prefs.answer(request, url);
  if (answered) return answered;
  if (url.pathname === apiPaths.usersExport)
    return { status: 200, body: 'User Name\r\n', headers: { 'content-type': 'text/csv; charset=utf-8' } };
  if (url.pathname === apiPaths.usersAll) {
    const { rows, ...rest } = pageOf([buildUser(1), buildUser(2)]);
    return ok({ users: rows, ...rest });
  }
  if (url.pathname === apiPaths.rolesAll)
    return ok({ roles: [], totalPages: 1, total: 0, page: 1, limit: 10 });
  return failure(404, 'Route not found');
});
beforeAll(() => {
  // jsdom keeps no files: the saved file's address is all the button needs.
  URL.createObjectURL = () => 'blob:export';
  URL.revokeObjectURL = () => undefined;
});

const exportedColumns = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
  await waitFor(() => expect(api.queries(apiPaths.usersExport)).toHaveLength(1));
  return api.queries(apiPaths.usersExport)[0]!.get('columns');
};

describe('Export CSV on User Management', { timeout: 20_000 }, () => {
  it('asks for the columns shown, in order, after the admin reorders and hides one', async () => {
    renderPage({ path: '/admin/user-management', Component: UsersPage, at: '/admin/user-management' });
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('user2');
    await reorderAndHide({ moveUp: 'Role', hide: 'Email' });
    expect(headersOf(table)).toEqual(['Sr No.', 'User Name', 'Role', 'Phone No.', 'Actions']);
    expect(await exportedColumns()).toBe('userName,role,phonenumber');
  });

  it('asks for the kept order when the page opens with one', async () => {
    prefs.kept = { columns: ['role', 'userName'], pageSize: null, sort: null };
    renderPage({ path: '/admin/user-management', Component: UsersPage, at: '/admin/user-management' });
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('user2');
    expect(await exportedColumns()).toBe('role,userName');
  });
});
