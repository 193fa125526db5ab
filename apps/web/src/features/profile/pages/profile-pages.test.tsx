import { File as NodeFile } from 'node:buffer';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminProfile } from '@app/contract/auth';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { clearSession, getSession, startSession } from '#web/lib/session-store.ts';
import { startTestServer, type Answer, type Recorded } from '#web/test/http-server.ts';
import { ChangePasswordPage } from './change-password-page.tsx';
import { ProfilePage } from './profile-page.tsx';
import { UpdateProfilePage } from './update-profile-page.tsx';
import { renderRouter } from '#web/test/render-router.tsx';

const admin: AdminProfile = {
  _id: 'a1',
  userName: 'admin',
  firstName: 'Ada',
  lastName: null,
  email: 'admin@example.com',
  phone: '5551234567',
  profileImage: null,
  role: { _id: 'r1', roleName: 'Admin', type: 'admin' },
  isDeletable: false,
};

let answer: (request: Recorded) => Answer;
let server: Awaited<ReturnType<typeof startTestServer>>;
/**
 * jsdom's FormData is not the one Node's fetch can send (the request never completes), so the
 * upload test uses Node's own FormData and File, as a browser's fetch would use its own.
 */
let jsdomFormData: typeof FormData;
let nodeFormData: typeof FormData;
beforeAll(async () => {
  jsdomFormData = globalThis.FormData;
  nodeFormData = (
    await new Response('', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }).formData()
  ).constructor as typeof FormData;
  server = await startTestServer((request) => answer(request));
  setApiBaseUrl(server.url);
  // jsdom has no object URLs; the preview only needs a string.
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => {};
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  startSession(admin, 'a.b.c');
  answer = (request) =>
    request.method === 'GET' && request.url === '/api/v1/admin/profile'
      ? { status: 200, body: { code: 200, msg: 'Success', data: admin } }
      : { status: 404, body: { code: 404, msg: 'Route not found', data: null } };
});

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/admin/profile', Component: ProfilePage },
      { path: '/admin/update-profile', Component: UpdateProfilePage },
      { path: '/admin/change-password', Component: ChangePasswordPage },
    ],
    { initialEntries: [path] },
  );
  return renderRouter(router);
}

describe('/admin/profile', () => {
  it('shows My Profile with N/A for missing values and an Update Profile button', async () => {
    renderAt('/admin/profile');
    expect(await screen.findByRole('heading', { name: 'My Profile' })).toBeTruthy();
    expect(await screen.findByText('admin@example.com')).toBeTruthy();
    expect(screen.getByText('N/A')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Update Profile' }).getAttribute('href')).toBe(
      '/admin/update-profile',
    );
  });
});

describe('/admin/update-profile', () => {
  it('shows the email read-only and checks user name and phone with the spec messages', async () => {
    renderAt('/admin/update-profile');
    const email = (await screen.findByLabelText('Email')) as HTMLInputElement;
    expect(email.readOnly).toBe(true);
    expect(email.value).toBe('admin@example.com');
    const phone = screen.getByLabelText(/Phone Number/);
    await userEvent.clear(phone);
    await userEvent.type(phone, '555-12');
    await userEvent.clear(screen.getByLabelText(/User Name/));
    await userEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText('Only digits are allowed')).toBeTruthy();
    expect(screen.getByText('User name is required')).toBeTruthy();
    await userEvent.clear(phone);
    await userEvent.type(phone, '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText('Phone number is too short')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('refuses a file that is not a PNG or JPG', async () => {
    renderAt('/admin/update-profile');
    const input = await screen.findByLabelText('Profile Image');
    await userEvent.upload(input, new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }), {
      applyAccept: false,
    });
    expect(await screen.findByText('Only PNG and JPG images are allowed')).toBeTruthy();
  });

  it(
    'sends the form as multipart, toasts, and merges the answer into the session so the avatar changes',
    { timeout: 20_000 },
    async () => {
      const updated = {
        ...admin,
        firstName: 'Augusta',
        profileImage: '/api/v1/admin/profile/image/0123456789abcdef0123456789abcdef.png',
      };
      const get = answer;
      answer = (request) =>
        request.method === 'PUT'
          ? { status: 200, body: { code: 200, msg: 'User profile updated successfully', data: updated } }
          : get(request);
      globalThis.FormData = nodeFormData;
      renderAt('/admin/update-profile');
      const first = await screen.findByLabelText('First Name');
      await userEvent.clear(first);
      await userEvent.type(first, 'Augusta');
      const png = new NodeFile([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', {
        type: 'image/png',
      }) as unknown as File;
      await userEvent.upload(screen.getByLabelText('Profile Image'), png);
      expect((await screen.findByAltText('Preview of the new profile picture')).getAttribute('src')).toBe(
        'blob:preview',
      );
      await userEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
      expect(await screen.findByText('User profile updated successfully')).toBeTruthy();

      const put = server.requests.find((r) => r.method === 'PUT')!;
      expect(put.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      for (const part of [
        'name="firstName"',
        'Augusta',
        'name="email"',
        'admin@example.com',
        'name="phone"',
        'name="file"; filename="me.png"',
      ]) {
        expect(put.body).toContain(part);
      }
      await waitFor(() => expect(getSession().userDetails?.profileImage).toBe(updated.profileImage));
      expect(getSession().details).toMatchObject({ firstName: 'Augusta', token: 'a.b.c' });
      clearSession();
      globalThis.FormData = jsdomFormData;
    },
  );

  it('shows the server message when the update fails', async () => {
    const get = answer;
    answer = (request) =>
      request.method === 'PUT'
        ? { status: 409, body: { code: 409, msg: 'A user with this user name already exists', data: null } }
        : get(request);
    renderAt('/admin/update-profile');
    await userEvent.click(await screen.findByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText('A user with this user name already exists')).toBeTruthy();
  });

  it('falls back to Update failed when the server gives no message', async () => {
    const get = answer;
    answer = (request) => (request.method === 'PUT' ? { status: 502 } : get(request));
    renderAt('/admin/update-profile');
    await userEvent.click(await screen.findByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText('Update failed')).toBeTruthy();
  });
});

describe('/admin/change-password', () => {
  it('checks both fields with the spec messages', async () => {
    renderAt('/admin/change-password');
    await userEvent.click(await screen.findByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('New Password'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeTruthy();
  });

  it('sends old_password and new_password and confirms the change', async () => {
    answer = () => ({ status: 200, body: { code: 200, msg: 'Password changed successfully', data: null } });
    renderAt('/admin/change-password');
    await userEvent.type(await screen.findByLabelText('Current Password'), 'Old-Passw0rd');
    await userEvent.type(screen.getByLabelText('New Password'), 'New-Passw0rd');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed successfully')).toBeTruthy();
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
      old_password: 'Old-Passw0rd',
      new_password: 'New-Passw0rd',
    });
    expect((screen.getByLabelText('Current Password') as HTMLInputElement).value).toBe('');
  });

  it('shows the server message for a wrong current password', async () => {
    answer = () => ({ status: 400, body: { code: 400, msg: 'Current password is incorrect', data: null } });
    renderAt('/admin/change-password');
    await userEvent.type(await screen.findByLabelText('Current Password'), 'nope');
    await userEvent.type(screen.getByLabelText('New Password'), 'New-Passw0rd');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();
  });
});
