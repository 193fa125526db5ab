import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRoot } from '#web/test/test-root.tsx';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { clearSession, reloadSessionFromStorage, SESSION_STORAGE_KEY } from '#web/lib/session-store.ts';
import { buildAdminProfile } from '#web/test/fixtures.ts';
import { startTestServer } from '#web/test/http-server.ts';
import { SignInPage } from './sign-in-page.tsx';

const admin = buildAdminProfile([], { role: null });

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer((request) => {
    const body = JSON.parse(request.body || '{}') as { password?: string };
    if (body.password === 'Admin12345')
      return {
        status: 200,
        body: { code: 200, msg: 'Login successful', data: { accessToken: 'a.b.c', admin } },
      };
    return { status: 401, body: { code: 401, msg: 'Invalid email or password', data: null } };
  });
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        Component: TestRoot,
        children: [
          { path: '/login-admin', Component: SignInPage },
          { path: '/admin/dashboard', element: <p>Dashboard screen</p> },
          { path: '/admin/device', element: <p>Device screen</p> },
          { path: '/forgot-password', element: <p>Forgot screen</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('sign-in page', () => {
  it('asks for the email and the password when both are empty', async () => {
    renderAt('/login-admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Email is required',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('rejects an email that is not an address', async () => {
    renderAt('/login-admin');
    await userEvent.type(await screen.findByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email format')).toBeTruthy();
    expect(screen.queryByText('Password is required')).toBeNull();
  });

  it('focuses the first field in error and re-checks a field as it is corrected', async () => {
    renderAt('/login-admin');
    await userEvent.type(await screen.findByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    const email = screen.getByLabelText('Email');
    expect(document.activeElement).toBe(email);
    await userEvent.type(email, 'admin@');
    expect(screen.getByText('Invalid email format')).toBeTruthy();
    await userEvent.type(email, 'example.com');
    expect(screen.queryByText('Invalid email format')).toBeNull();
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(server.requests).toHaveLength(0);
  });

  it('shows and hides the password with a pressed toggle', async () => {
    renderAt('/login-admin');
    const password = await screen.findByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(password.getAttribute('type')).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(toggle);
    expect(password.getAttribute('type')).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });

  it('toasts the server msg when the password is wrong and stays signed out', async () => {
    const router = renderAt('/login-admin');
    await userEvent.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login-admin');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('stores the session with the token and time zone, then opens the dashboard', async () => {
    const router = renderAt('/login-admin');
    await userEvent.type(await screen.findByLabelText('Email'), ' admin@example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'Admin12345');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Dashboard screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!);
    expect(stored.details).toMatchObject({
      ...admin,
      token: 'a.b.c',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(stored.userDetails).toMatchObject(admin);
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
      email: 'admin@example.com',
      password: 'Admin12345',
    });
    clearSession();
  });

  it('sends an admin who is already signed in to /admin/device', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ details: { token: 'a.b.c' }, toggle: true }));
    reloadSessionFromStorage();
    const router = renderAt('/login-admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/device'));
    expect(router.state.historyAction).toBe('REPLACE');
    clearSession();
  });
});
