import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildRole, buildUser, failure, ok, pageOf } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { UsersPage } from './users-page.tsx';

/*
 * The Role dropdown of Add New User and Edit User (decision 063, issue 35 item 11): roles grouped by
 * type, a role carrying a permission the admin lacks shown but not pickable, and an admin editing
 * themselves offered only the role they hold.
 */

const roles = [
  buildRole(1, { roleName: 'Support', permissions: ['users.manage'] }),
  buildRole(2, { roleName: 'Clinicians', permissions: ['users.manage', 'patients.view'] }),
  buildRole(3, { roleName: 'Technician', type: 'app' }),
];
// The signed-in admin (fixtures' buildAdminProfile: user a1, role r1) is one of the listed users.
const self = buildUser(2, { _id: 'a1', userName: 'me', roleId: roles[0]!._id });

serveTestApi((_request, url) => {
  if (url.pathname === '/api/v1/admin/users/all') {
    const { rows, ...rest } = pageOf([buildUser(1), self], { page: 1, limit: 10 });
    return ok({ users: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/roles/all') return ok({ roles, ...pageOf([]) });
  return failure(404, 'Route not found');
});

signedInForEachTest(['users.manage', 'devices.view']);

const openUsers = () =>
  renderPage({ path: '/admin/user-management', Component: UsersPage, at: '/admin/user-management' });

describe('the Role dropdown', () => {
  it('groups the roles by type and shows a role beyond the admin, not pickable', async () => {
    const user = userEvent.setup();
    openUsers();
    await user.click(await screen.findByRole('button', { name: 'Add New User' }));
    const form = await screen.findByRole('dialog', { name: 'Add New User' });
    await within(form).findByRole('option', { name: 'Support' });
    const select = within(form).getByRole('combobox', { name: /Role/ });
    expect([...select.querySelectorAll('optgroup')].map((g) => g.label)).toEqual(['Web roles', 'App roles']);
    const beyond = within(form).getByRole('option', { name: 'Clinicians (has permissions you do not hold)' });
    expect((beyond as HTMLOptionElement).disabled).toBe(true);
    expect((within(form).getByRole('option', { name: 'Support' }) as HTMLOptionElement).disabled).toBe(false);
    expect((within(form).getByRole('option', { name: 'Technician' }) as HTMLOptionElement).disabled).toBe(
      false,
    );
  });

  it('offers an admin editing themselves only the role they hold, saying why', async () => {
    const user = userEvent.setup();
    openUsers();
    await user.click(await screen.findByRole('button', { name: 'Edit me' }));
    const form = await screen.findByRole('dialog', { name: 'Edit User' });
    await within(form).findByRole('option', { name: 'Support' });
    const select = within(form).getByRole('combobox', { name: /Role/ }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Support']);
    expect(select.value).toBe(roles[0]!._id);
    expect(within(form).getByText('You cannot change your own role')).toBeTruthy();
  });
});
