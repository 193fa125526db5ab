import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildRole, buildUser, failure, ok, pageOf } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { UsersPage } from './users-page.tsx';

/*
 * Step-up (docs/decisions/046) as the admin meets it: editing an admin answers 403 "Confirm your
 * password to continue" until the password has been confirmed; the API client opens the dialog,
 * confirms, and sends the edit once more. The form underneath never loses what was typed.
 */

const rightPassword = 'Right-Passw0rd';
const rightCode = '123456';
let steppedUp = false;
let needsCode = false;

const refusal = (msg: string, path: 'password' | 'code'): Answer => ({
  status: 400,
  body: { code: 400, msg, data: { errors: [{ path, message: msg }] } },
});

const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/users/all') {
    const { rows, ...rest } = pageOf([buildUser(1)], { page: 1, limit: 10 });
    return ok({ users: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/roles/all') return ok({ roles: [buildRole(1)], ...pageOf([]) });
  if (url.pathname === '/api/v1/admin/profile/step-up' && request.method === 'POST') {
    const body = JSON.parse(request.body) as { password: string; code?: string };
    if (body.password !== rightPassword) return refusal('Password is incorrect', 'password');
    if (needsCode && body.code !== rightCode) return refusal('Invalid or expired code', 'code');
    steppedUp = true;
    return ok({ steppedUpUntil: '2026-11-25T10:05:00.000Z' }, 'Password confirmed');
  }
  if (url.pathname === `/api/v1/admin/users/${buildUser(1)._id}` && request.method === 'PUT') {
    if (!steppedUp)
      return {
        status: 403,
        body: {
          code: 403,
          msg: 'Confirm your password to continue',
          data: { stepUpRequired: true, needsCode },
        },
      };
    return ok({ ...buildUser(1), ...JSON.parse(request.body) }, 'User updated successfully');
  }
  return failure(404, 'Route not found');
});

beforeEach(() => {
  steppedUp = false;
  needsCode = false;
});

const edits = () => api.requests.filter((r) => r.method === 'PUT');
const stepUps = () => api.requests.filter((r) => r.url === '/api/v1/admin/profile/step-up');

/** Opens Edit User for user1, changes the last name and saves: the answer asks for a step-up. */
async function saveAnEdit(user: ReturnType<typeof userEvent.setup>) {
  renderPage({ path: '/admin/user-management', Component: UsersPage, at: '/admin/user-management' });
  await user.click(await screen.findByRole('button', { name: 'Edit user1' }));
  const form = await screen.findByRole('dialog', { name: 'Edit User' });
  await within(form).findByRole('option', { name: 'Role 1' });
  const lastName = within(form).getByLabelText(/Last Name/);
  await user.clear(lastName);
  await user.type(lastName, 'Changed');
  await user.click(within(form).getByRole('button', { name: 'Save' }));
  const stepUp = await screen.findByRole('dialog', { name: 'Confirm your password to continue' });
  return { form, lastName, stepUp };
}

describe('step-up before a dangerous action', () => {
  it('asks for the password on the 403, shows a wrong one under the field, then sends the edit once more', async () => {
    const user = userEvent.setup();
    const { form, stepUp } = await saveAnEdit(user);
    expect(edits()).toHaveLength(1);
    const password = within(stepUp).getByLabelText('Your password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(within(stepUp).queryByLabelText('Your code')).toBeNull();

    await user.type(password, 'Wrong-Passw0rd');
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    expect(await within(stepUp).findByText('Password is incorrect')).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(edits()).toHaveLength(1);

    await user.clear(password);
    await user.type(password, rightPassword);
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('User updated successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(form.isConnected).toBe(false);
    // The same edit, sent again once the password was confirmed.
    expect(edits()).toHaveLength(2);
    expect(JSON.parse(edits()[1]!.body)).toEqual(JSON.parse(edits()[0]!.body));
    expect(JSON.parse(edits()[1]!.body).lastName).toBe('Changed');
    expect(stepUps().map((r) => JSON.parse(r.body))).toEqual([
      { password: 'Wrong-Passw0rd' },
      { password: rightPassword },
    ]);
  });

  it('on Cancel, leaves the form open with what was typed and says why, sending nothing more', async () => {
    const user = userEvent.setup();
    const { form, lastName, stepUp } = await saveAnEdit(user);
    await user.click(within(stepUp).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Confirm your password to continue' })).toBeNull(),
    );
    expect(await screen.findByText('Confirm your password to continue')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBe(form);
    expect((lastName as HTMLInputElement).value).toBe('Changed');
    expect(within(form).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
    expect(edits()).toHaveLength(1);
    expect(stepUps()).toHaveLength(0);
  });

  it("asks for a code as well when the admin's own two-step sign-in is on", async () => {
    needsCode = true;
    const user = userEvent.setup();
    const { stepUp } = await saveAnEdit(user);
    await user.type(within(stepUp).getByLabelText('Your password'), rightPassword);
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    const code = within(stepUp).getByLabelText('Your code');
    expect(await within(stepUp).findByText('Code is required')).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(stepUps()).toHaveLength(0);

    await user.type(code, '000000');
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    expect(await within(stepUp).findByText('Invalid or expired code')).toBeTruthy();
    await user.clear(code);
    await user.type(code, rightCode);
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(edits()).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.parse(stepUps().at(-1)!.body)).toEqual({ password: rightPassword, code: rightCode });
  });
});
