import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '@app/contract/roles';
import { formatDateTime } from '#web/lib/format.ts';
import { buildRole, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { RolesPage } from './roles-page.tsx';
import { ViewRolePage } from './view-role-page.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { keptListPreferences } from '#web/test/list-preferences.ts';

// Decision 047: what these screens offer follows the role; here it carries every permission.
signedInForEachTest();

let roles: Role[] = [];
let hold: Promise<Answer> | null = null;

const prefs = keptListPreferences('roles');
const api = serveTestApi((request, url) => {
  if (hold) return hold;
  const answered = prefs.answer(request, url);
  if (answered) return answered;
  const path = url.pathname;
  if (path === '/api/v1/admin/roles/export')
    return { status: 200, body: 'Role Name\r\nRole 1\r\n', headers: { 'content-type': 'text/csv' } };
  if (path === '/api/v1/admin/roles/all') {
    const page = Number(url.searchParams.get('currentPage'));
    const limit = Number(url.searchParams.get('pageSize'));
    const { rows, ...rest } = pageOf(roles, { page, limit });
    return ok({ roles: rows, ...rest });
  }
  if (path === '/api/v1/admin/roles' && request.method === 'POST') {
    const body = JSON.parse(request.body) as Pick<Role, 'roleName' | 'type'>;
    roles = [...roles, buildRole(roles.length + 1, body)];
    return ok(roles.at(-1), 'Role created successfully', 201);
  }
  const role = roles.find((r) => path === `/api/v1/admin/roles/${r._id}`);
  if (role && request.method === 'DELETE') {
    roles = roles.filter((r) => r !== role);
    return ok(null, 'Role deleted successfully');
  }
  if (role) return ok(role);
  return failure(404, 'Role not found');
});

beforeEach(() => {
  hold = null;
  roles = Array.from({ length: 12 }, (_, i) => buildRole(i + 1));
});

describe('Roles', () => {
  const openRoles = (at = '/admin/roles') => renderPage({ path: '/admin/roles', Component: RolesPage, at });

  it('lists the roles with Sr No., the name and the actions, a page at a time', async () => {
    openRoles('/admin/roles?page=2');
    const table = await screen.findByRole('table', { name: 'Roles' });
    await within(table).findByText('Role 11');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sr No.', 'Role Name', 'Actions']);
    expect(within(table).getAllByRole('row')[1]!.textContent).toMatch(/^11Role 11/);
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    // docs/product.md §7.3: this list pages with currentPage and pageSize.
    const query = api.queries('/api/v1/admin/roles/all')[0]!;
    expect([query.get('currentPage'), query.get('pageSize')]).toEqual(['2', '10']);
  });

  it('shows a spinner while the list loads and the empty text when there are no roles', async () => {
    roles = [];
    const held = heldAnswer();
    hold = held.answer;
    openRoles();
    const table = await screen.findByRole('table', { name: 'Roles' });
    expect(await within(table).findByRole('status')).toBeTruthy();
    hold = null;
    held.release(ok({ roles: [], totalPages: 0, total: 0, page: 1, limit: 10 }));
    expect(await within(table).findByText('No Roles found.')).toBeTruthy();
  });

  it('adds a role after checking the form, and lists it', async () => {
    roles = [buildRole(1)];
    openRoles();
    await screen.findByText('Role 1');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Role' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Role Name is required')).toBeTruthy();
    expect(within(dialog).getByText('Type is required')).toBeTruthy();

    await userEvent.type(within(dialog).getByLabelText(/Role Name/), 'Field Technician');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Type/), 'App');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Role created successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Field Technician')).toBeTruthy();
    const post = api.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ roleName: 'Field Technician', type: 'app' });
  });

  it('turns to the last page after adding a role, where the new role lands', async () => {
    const router = openRoles();
    await screen.findByText('Role 10');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Role' });
    await userEvent.type(within(dialog).getByLabelText(/Role Name/), 'Night Shift');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Type/), 'Web');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const table = screen.getByRole('table', { name: 'Roles' });
    expect(await within(table).findByText('Night Shift')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('deletes a role only after Yes in the confirmation', async () => {
    roles = [buildRole(1), buildRole(2)];
    openRoles();
    await screen.findByText('Role 2');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Role 2' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove Data' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Role 2' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove Data' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Role deleted successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Role 2')).toBeNull());
    expect(api.requests.find((r) => r.method === 'DELETE')!.url).toBe(`/api/v1/admin/roles/${testId(2, 5)}`);
  });

  it("opens a role's page from its eye button", async () => {
    roles = [buildRole(1)];
    const router = openRoles();
    await userEvent.click(await screen.findByRole('link', { name: 'View Role 1' }));
    expect(router.state.location.pathname).toBe(`/admin/view-role/${testId(1, 5)}`);
  });

  it('asks once, at the page size the admin kept, and offers Role Name in the chooser, always shown', async () => {
    prefs.kept = { columns: null, pageSize: 25, sort: null };
    openRoles();
    await within(await screen.findByRole('table', { name: 'Roles' })).findByText('Role 12');
    expect(api.queries('/api/v1/admin/roles/all').map((q) => q.get('pageSize'))).toEqual(['25']);
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const name = (await screen.findByRole('checkbox', { name: /Role Name/ })) as HTMLInputElement;
    expect([name.checked, name.disabled]).toEqual([true, true]);
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '10');
    await waitFor(() => expect(prefs.kept).toMatchObject({ pageSize: 10 }));
  });
});

describe('Role Details', () => {
  const openRole = (id: string) =>
    renderPage({ path: '/admin/view-role/:id', Component: ViewRolePage, at: `/admin/view-role/${id}` });
  const valueOf = (label: string) =>
    screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

  it('shows Role Id, Role Name and Create Time, and goes back to the roles list', async () => {
    roles = [buildRole(3)];
    const router = openRole(testId(3, 5));
    await screen.findByText('Role 3');
    expect(valueOf('Role Id')).toBe('3');
    expect(valueOf('Role Name')).toBe('Role 3');
    expect(valueOf('Create Time')).toBe(formatDateTime(roles[0]!.createTime));
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(router.state.location.pathname).toBe('/admin/roles');
  });

  it('shows N/A for a role without a create time', async () => {
    roles = [buildRole(4, { createTime: null })];
    openRole(testId(4, 5));
    await screen.findByText('Role 4');
    expect(valueOf('Create Time')).toBe('N/A');
  });

  it('shows a spinner, then "Role not found" for an unknown id', async () => {
    const held = heldAnswer();
    hold = held.answer;
    openRole(testId(99, 5));
    const card = await screen.findByRole('region', { name: 'Role Details' });
    expect(within(card).getByRole('status')).toBeTruthy();
    hold = null;
    held.release(failure(404, 'Role not found'));
    expect(await within(card).findByText('Role not found')).toBeTruthy();
  });
});

describe('Export CSV on Roles', () => {
  it('downloads the roles file and says how many rows it held', async () => {
    // jsdom keeps no files: the saved file's address is all the button needs.
    URL.createObjectURL = () => 'blob:roles';
    URL.revokeObjectURL = () => undefined;
    const user = userEvent.setup();
    renderPage({ path: '/admin/roles', Component: RolesPage, at: '/admin/roles' });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(/^Exported \d+ rows$/)).toBeTruthy();
    expect(api.queries('/api/v1/admin/roles/export')).toHaveLength(1);
  });
});
