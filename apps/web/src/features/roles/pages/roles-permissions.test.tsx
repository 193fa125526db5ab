import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { permissionNames } from '@app/contract/permissions';
import type { Role, RoleBody } from '@app/contract/roles';
import { buildRole, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { RolesPage } from './roles-page.tsx';
import { ViewRolePage } from './view-role-page.tsx';

/*
 * Decision 047 on the roles screens: the Permissions card of Role Details, and Add Role, Edit and
 * Delete (the spec's modal and confirmation) offered to an admin whose role carries roles.manage only.
 */

let roles: Role[] = [];

const api = serveTestApi((request, url) => {
  const path = url.pathname;
  if (path === '/api/v1/admin/roles/all') {
    const { rows, ...rest } = pageOf(roles);
    return ok({ roles: rows, ...rest });
  }
  const role = roles.find((r) => path === `/api/v1/admin/roles/${r._id}`);
  if (!role) return failure(404, 'Role not found');
  if (request.method === 'DELETE') {
    roles = roles.filter((r) => r !== role);
    return ok(null, 'Role deleted successfully');
  }
  if (request.method === 'PUT') {
    const body = JSON.parse(request.body) as RoleBody;
    // As the API does: left out, the permissions stay; they come back in catalogue order.
    const permissions = body.permissions
      ? permissionNames.filter((p) => body.permissions!.includes(p))
      : role.permissions;
    const saved = { ...role, roleName: body.roleName, type: body.type, permissions };
    roles = roles.map((r) => (r === role ? saved : r));
    return ok(saved, 'Role updated successfully');
  }
  return ok(role);
});

// Every test starts as an admin who may do everything; some then sign in with less.
signedInForEachTest();

beforeEach(() => {
  roles = [
    buildRole(1, { roleName: 'Support', permissions: ['devices.view', 'logs.view'] }),
    buildRole(2, { roleName: 'Technician', type: 'app' }),
  ];
});

const openRole = (n: number) =>
  renderPage({
    path: '/admin/view-role/:id',
    Component: ViewRolePage,
    at: `/admin/view-role/${testId(n, 5)}`,
  });
const openRoles = () => renderPage({ path: '/admin/roles', Component: RolesPage, at: '/admin/roles' });
const card = () => screen.findByRole('region', { name: 'Permissions' });
const writes = () => api.requests.filter((r) => r.method !== 'GET');

describe('the Permissions card of Role Details', () => {
  it('lists the catalogue under its groups, each permission with its line, ticking what the role carries', async () => {
    openRole(1);
    const permissions = await card();
    const groups = within(permissions).getAllByRole('group');
    expect(groups.map((g) => g.querySelector('legend')?.textContent)).toEqual([
      'Devices',
      'Health data',
      'Admin Logs',
      'Users and roles',
      'Subscriptions',
      'Customers',
      'App updates',
      'Security',
      'Field safety',
    ]);
    expect(
      within(groups[0]!)
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent),
    ).toEqual([
      'devices.view',
      'devices.edit',
      'devices.enrol',
      'commands.send',
      'commands.disruptive',
      'groups.manage',
    ]);
    const ticked = within(permissions)
      .getAllByRole('checkbox')
      .filter((box) => (box as HTMLInputElement).checked);
    expect(ticked.map((box) => (box as HTMLInputElement).labels?.[0]?.textContent)).toEqual([
      'devices.view',
      'logs.view',
    ]);
    // Each box is described by its one line, for a screen reader as for the eye.
    const logs = within(permissions).getByRole('checkbox', { name: 'logs.view' });
    expect(document.getElementById(logs.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Read the access logs and error logs: who did what, and what failed.',
    );
  });

  it("saves the ticked permissions with the role's name and type, and shows what the server stored", async () => {
    openRole(1);
    const permissions = await card();
    const save = within(permissions).getByRole('button', { name: 'Save permissions' });
    // Nothing changed yet: nothing to save.
    expect(save).toHaveProperty('disabled', true);
    await userEvent.click(within(permissions).getByRole('checkbox', { name: 'users.manage' }));
    await userEvent.click(within(permissions).getByRole('checkbox', { name: 'logs.view' }));
    await userEvent.click(save);
    expect(await screen.findByText('Role updated successfully')).toBeTruthy();
    const put = writes()[0]!;
    expect([put.method, put.url]).toEqual(['PUT', `/api/v1/admin/roles/${testId(1, 5)}`]);
    expect(JSON.parse(put.body)).toEqual({
      roleName: 'Support',
      type: 'admin',
      permissions: ['devices.view', 'users.manage'],
    });
    await waitFor(() =>
      expect(within(permissions).getByRole('button', { name: 'Save permissions' })).toHaveProperty(
        'disabled',
        true,
      ),
    );
    expect(within(permissions).getByRole('checkbox', { name: 'users.manage' })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(permissions).getByRole('checkbox', { name: 'logs.view' })).toHaveProperty('checked', false);
  });

  it('shows an admin without roles.manage what the role carries, with nothing to change', async () => {
    signInWith(permissionNames.filter((p) => p !== 'roles.manage'));
    openRole(1);
    const permissions = await card();
    expect(within(permissions).queryAllByRole('checkbox')).toEqual([]);
    expect(within(permissions).queryByRole('button')).toBeNull();
    const line = (name: string) => within(permissions).getByText(name).closest('li')!;
    expect(within(line('devices.view')).getByText('Carried')).toBeTruthy();
    expect(within(line('users.manage')).getByText('Not carried')).toBeTruthy();
    expect(within(permissions).getAllByRole('heading', { level: 3 })).toHaveLength(9);
  });

  it('lets an admin tick only what their own role carries, saying why the rest cannot be granted (decision 063)', async () => {
    signInWith(['roles.manage', 'devices.view', 'logs.view']);
    openRole(1);
    const permissions = await card();
    const box = (name: string) => within(permissions).getByRole('checkbox', { name });
    expect(box('devices.view')).toHaveProperty('disabled', false);
    expect(box('logs.view')).toHaveProperty('disabled', false);
    expect(box('patients.view')).toHaveProperty('disabled', true);
    expect(box('patients.view').getAttribute('aria-describedby')).toBeTruthy();
    expect(
      document.getElementById(box('patients.view').getAttribute('aria-describedby')!)!.textContent,
    ).toContain('Your role does not carry this permission, so you cannot grant it.');
  });

  it('shows a role that carries more than the admin holds read-only, with the reason', async () => {
    signInWith(['roles.manage', 'devices.view']);
    openRole(1);
    const wider = await card();
    expect(within(wider).queryAllByRole('checkbox')).toEqual([]);
    expect(
      within(wider).getByText(
        'This role carries the permission "logs.view", which your role does not: only an admin who holds it can change this role.',
      ),
    ).toBeTruthy();
  });

  it("shows the admin's own role read-only: another admin changes its permissions", async () => {
    roles = [buildRole(1, { _id: 'r1', roleName: 'Admin', permissions: [...permissionNames] })];
    renderPage({ path: '/admin/view-role/:id', Component: ViewRolePage, at: '/admin/view-role/r1' });
    const own = await card();
    expect(within(own).queryAllByRole('checkbox')).toEqual([]);
    expect(
      within(own).getByText(
        'This is your own role: another admin who holds its permissions can change them.',
      ),
    ).toBeTruthy();
  });

  it('says an App role carries none, with nothing to tick', async () => {
    openRole(2);
    const permissions = await card();
    expect(
      within(permissions).getByText(
        'An App role carries no permissions: its users work on the machines, not in the console.',
      ),
    ).toBeTruthy();
    expect(within(permissions).queryAllByRole('checkbox')).toEqual([]);
  });
});

describe('Edit and Delete on Role Details', () => {
  it("edits the role's name in the spec's Edit Role modal", async () => {
    openRole(1);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Role' });
    const name = within(dialog).getByLabelText(/Role Name/);
    expect(name).toHaveProperty('value', 'Support');
    await userEvent.clear(name);
    await userEvent.type(name, 'Support Desk');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Role updated successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.parse(writes()[0]!.body)).toEqual({ roleName: 'Support Desk', type: 'admin' });
    const details = screen.getByRole('region', { name: 'Role Details' });
    expect(await within(details).findByText('Support Desk')).toBeTruthy();
  });

  it("deletes the role after the spec's confirmation, then goes back to the roles list", async () => {
    const router = openRole(1);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove Data' });
    expect(within(dialog).getByText('Are you sure you want to delete this?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes()).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove Data' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Role deleted successfully')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/roles'));
    expect(writes().map((r) => [r.method, r.url])).toEqual([
      ['DELETE', `/api/v1/admin/roles/${testId(1, 5)}`],
    ]);
    expect(screen.queryByText('Role not found')).toBeNull();
  });

  it('offers neither to an admin without roles.manage', async () => {
    signInWith(['devices.view']);
    openRole(1);
    await screen.findByRole('region', { name: 'Permissions' });
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
  });
});

describe('the roles list', () => {
  it('offers Add Role, Edit and Delete with roles.manage', async () => {
    openRoles();
    await screen.findByText('Technician');
    expect(screen.getByRole('button', { name: 'Add Role' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Support' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Support' })).toBeTruthy();
  });

  it('leaves only View to an admin without roles.manage', async () => {
    signInWith(permissionNames.filter((p) => p !== 'roles.manage'));
    openRoles();
    await screen.findByText('Technician');
    expect(screen.queryByRole('button', { name: 'Add Role' })).toBeNull();
    const row = screen.getByRole('row', { name: /Support/ });
    expect(within(row).queryAllByRole('button')).toEqual([]);
    expect(within(row).getByRole('link', { name: 'View Support' })).toBeTruthy();
  });
});
