import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, matchRoutes, RouterProvider, type LoaderFunction } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { permissionNames } from '@app/contract/permissions';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import {
  clearSession,
  getSession,
  reloadSessionFromStorage,
  SESSION_STORAGE_KEY,
} from '../lib/session-store.ts';
import { routerOptions, routes } from './routes.tsx';

const signIn = (toggle = true) => {
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({
      details: {
        _id: '1',
        userName: 'admin',
        email: 'admin@example.com',
        token: 'a.b.c',
        timeZone: 'UTC',
        // Every screen is open to this admin (decision 047; the no-access page has its own tests).
        role: { _id: 'r1', roleName: 'Admin', type: 'admin', permissions: permissionNames },
      },
      toggle,
      deviceDetail: null,
      userDetails: null,
    }),
  );
  reloadSessionFromStorage();
};

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

/*
 * This file checks where each URL leads, not what the screen there shows (each screen's own tests
 * answer its requests), so the screens' requests are held and they stay loading. Before, with no API
 * to go to, each one failed at once and raised an error toast: dozens a test, half of this file's
 * time. Sign-out is answered, as the server would.
 */
const api = serveTestApi((request, url) =>
  request.method === 'POST' && url.pathname === apiPaths.logout
    ? { status: 200, body: null }
    : heldAnswer().answer,
);

afterEach(() => clearSession());

describe('routes', () => {
  it.each(['/', '/login', '/login-admin'])('shows sign-in at %s', async (path) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Sign In | ADMIN'));
  });

  it.each(['/nowhere', '/admin', '/admin/unknown'])('sends %s to /login-admin', async (path) => {
    const router = renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-admin'));
  });

  it.each([
    ['/forgot-password', 'Forgot Password'],
    ['/enter-otp', 'Enter OTP'],
    ['/reset-password/abc', 'Reset Password'],
  ])('serves the public page %s (%s) without the admin layout', async (path, title) => {
    const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: [path] });
    const titles: string[] = [];
    router.subscribe(() => titles.push(document.title));
    render(<RouterProvider router={router} />);
    // The page may move on by itself (OTP without an email goes back), but never to sign-in.
    await waitFor(() => expect(document.title).toMatch(/ \| ADMIN$/));
    expect([...titles, document.title]).toContain(`${title} | ADMIN`);
    expect(router.state.location.pathname).not.toBe('/login-admin');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it.each(['/plans', '/plans/42', '/success', '/cancel'])(
    'hands %s to a page load: the public checkout is not part of the console (decision 028)',
    async (path) => {
      const match = matchRoutes(routes, path)?.at(-1);
      const loader = match?.route.loader as LoaderFunction;
      const request = new Request(`http://localhost${path}?subscription=1`);
      const response = (await loader({
        request,
        params: match?.params ?? {},
      } as Parameters<LoaderFunction>[0])) as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe(`${path}?subscription=1`);
      expect(response.headers.get('X-Remix-Reload-Document')).toBe('true');
    },
  );

  it('guards admin routes: without a token they go to /login-admin', async () => {
    const router = renderAt('/admin/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-admin'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it.each([
    ['/admin/dashboard', 'Dashboard', 'Dashboard'],
    ['/admin/widgets', 'Widgets', null],
    ['/admin/device', 'Device Management', 'Device Management'],
    ['/admin/device-details/7', 'Device Details', 'Device Management'],
    ['/admin/view-doctor/7', 'Doctor Details', 'Device Management'],
    ['/admin/view-patient/7', 'Patient Details', 'Device Management'],
    ['/admin/view-technician/7', 'Technician Details', 'Device Management'],
    ['/admin/roles', 'Roles', 'Roles'],
    ['/admin/view-role/7', 'Role Details', 'Roles'],
    ['/admin/logs-management', 'Admin Logs', 'Admin Logs'],
    ['/admin/user-management', 'User Management', 'User Management'],
    ['/admin/view-user/7', 'User Details', 'User Management'],
    ['/admin/subscription-management', 'Subscription', 'Subscription'],
    ['/admin/app-update', 'App Update', 'App Update'],
    ['/admin/alarms', 'Alarms', 'Alarms'],
    ['/admin/change-password', 'Change Password', 'Change Password'],
    ['/admin/profile', 'My Profile', 'Profile'],
    ['/admin/update-profile', 'Update Profile', 'Update Profile'],
  ])(
    'signed in, %s is titled "%s" inside the layout with the right sidebar item active',
    async (path, title, activeItem) => {
      signIn();
      const router = renderAt(path);
      const nav = await screen.findByRole('navigation', { name: 'Main' });
      await waitFor(() => expect(document.title).toBe(`${title} | ADMIN`));
      expect(router.state.location.pathname).toBe(path);
      const current = within(nav).queryAllByRole('link', { current: 'page' });
      expect(current.map((link) => link.textContent)).toEqual(activeItem ? [activeItem] : []);
      expect(screen.getByRole('main')).toBeTruthy();
      expect(screen.getByRole('contentinfo').textContent).toBe(
        `© ${new Date().getFullYear()} Device Admin. All rights reserved.`,
      );
    },
  );

  it.each([
    ['/admin/dashboard', 'Dashboard'],
    ['/admin/widgets', 'Widgets'],
  ])('%s has one h1: %s', async (path, heading) => {
    signIn();
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('puts the skip link first and keeps the sidebar choice in the session', async () => {
    signIn();
    renderAt('/admin/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('Skip to main content');
    const toggle = screen.getByRole('button', { name: 'Toggle sidebar' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(getSession().toggle).toBe(false);
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!).toggle).toBe(false);
  });

  it('expands and collapses the Account group', async () => {
    signIn();
    renderAt('/admin/dashboard');
    const group = await screen.findByRole('button', { name: 'Account' });
    expect(group.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Change Password' })).toBeTruthy();
    await userEvent.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens the profile menu from the keyboard, moves with arrows and closes on Escape', async () => {
    signIn();
    renderAt('/admin/dashboard');
    const button = await screen.findByRole('button', { name: 'admin' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Profile',
      'Update Profile',
      'Change Password',
      'Logout',
    ]);
    expect(document.activeElement).toBe(items[0]);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[1]);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(items[3]);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(screen.getByRole('img', { name: 'Profile picture of admin' })).toBeTruthy();
  });

  it('logs out: clears the session, toasts and lands on /login-admin', async () => {
    signIn();
    const router = renderAt('/admin/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'admin' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByText('Logout Successfully')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-admin'));
    expect(getSession().details).toBeNull();
    const signOut = api.requests.find((r) => r.method === 'POST' && r.url === apiPaths.logout);
    expect(signOut?.headers.authorization).toBe('Bearer a.b.c');
  });
});
