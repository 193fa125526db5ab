import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { userMessages } from '@app/contract/users';
import { buildRole, buildUser, failure, ok, pageOf } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { UserFormModal } from './user-form-modal.tsx';

/* A save refused for a taken email or user name says so under that field; any other refusal is a toast. */

const role = buildRole(1, { roleName: 'Support', permissions: ['users.manage'] });
const user = buildUser(7, { roleId: role._id });
let refusal = userMessages.emailTaken as string;

serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/roles/all') return ok({ roles: [role], ...pageOf([]) });
  if (request.method === 'PUT' && url.pathname === `/api/v1/admin/users/${user._id}`)
    return failure(409, refusal);
  return failure(404, 'Route not found');
});

signedInForEachTest(['users.manage']);

function EditUser() {
  return <UserFormModal show onClose={() => {}} user={user} />;
}

const saveRefusedWith = async (message: string) => {
  refusal = message;
  renderPage({ path: '/edit', Component: EditUser, at: '/edit' });
  const form = await screen.findByRole('dialog', { name: 'Edit User' });
  await within(form).findByRole('option', { name: 'Support' });
  await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
  return form;
};

const errorUnder = (form: HTMLElement, label: RegExp) => {
  const ids = within(form).getByLabelText(label).getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');
};

describe('Edit User refused by the API', () => {
  it('shows a taken email under Email', async () => {
    const form = await saveRefusedWith(userMessages.emailTaken);
    await within(form).findByText(userMessages.emailTaken);
    expect(errorUnder(form, /^Email/)).toContain(userMessages.emailTaken);
    expect(errorUnder(form, /^User Name/)).toBe('');
  });

  it('shows a taken user name under User Name', async () => {
    const form = await saveRefusedWith(userMessages.userNameTaken);
    await within(form).findByText(userMessages.userNameTaken);
    expect(errorUnder(form, /^User Name/)).toContain(userMessages.userNameTaken);
    expect(errorUnder(form, /^Email/)).toBe('');
  });

  it('toasts any other conflict, under no field', async () => {
    const form = await saveRefusedWith('Something else conflicts');
    expect(await screen.findByText('Something else conflicts')).toBeTruthy();
    expect(within(form).queryByText('Something else conflicts')).toBeNull();
  });
});
