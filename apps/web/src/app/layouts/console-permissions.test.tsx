import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { permissionMessages, permissionNames, type Permission } from '@app/contract/permissions';
import { preloadToasts } from '#web/lib/notify.ts';
import { clearSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok } from '#web/test/fixtures.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { signInWith } from '#web/test/session.ts';
import { routerOptions, routes } from '../routes.tsx';

/*
 * Decision 047 on the whole console (the real routes, layout and query cache): the sidebar offers what
 * the role carries, a screen the role lacks shows the no-access page without asking for its data, and
 * a permission the API refuses later shows that page too, instead of toasts.
 */

/** What the API says the admin's role carries now (the profile), whatever the session still holds. */
let carried: Permission[] = [];
/** The role as profile reads find it until the API has refused a logs request (the role changed then). */
let carriedAtFirst: Permission[] | null = null;
/** Routes the API refuses as a role lacking `logs.view` would. */
let refuseLogs = false;
/** Whether a logs request has been refused yet: the change of role the API has acted on. */
let refusedLogs = false;

const api = serveTestApi((_request, url) => {
  const path = url.pathname;
  if (path === '/api/v1/admin/profile') {
    // Decided by what the API has done, not by the order requests arrive in: the bell's and the
    // screen's requests race the first profile read on a busy machine.
    return ok(buildAdminProfile(carriedAtFirst && !refusedLogs ? carriedAtFirst : carried));
  }
  if (refuseLogs && path.includes('-logs/')) {
    refusedLogs = true;
    return failure(403, permissionMessages.missing('logs.view'));
  }
  if (path.endsWith('/all'))
    return ok({
      logs: [],
      users: [],
      roles: [],
      total_pages: 0,
      totalPages: 0,
      total: 0,
      page: 1,
      limit: 10,
    });
  return failure(404, 'Not found');
});

beforeEach(() => {
  refuseLogs = false;
  refusedLogs = false;
  carriedAtFirst = null;
});
afterEach(() => clearSession());

/**
 * Signs in with `permissions` and opens `path` in the console; the API's profile answers `now`
 * (the same unless the role changed since the sign-in).
 */
function openAs(permissions: Permission[], path: string, now: Permission[] = permissions) {
  carried = now;
  signInWith(permissions);
  const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const sidebarItems = async () => {
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  return [
    ...within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent),
    ...within(nav)
      .queryAllByRole('button')
      .map((b) => b.textContent),
  ].filter((text) => text !== 'Device Admin');
};

const dataRequests = (path: string) => api.requests.filter((r) => r.url.startsWith(path));

describe('the sidebar', () => {
  it('shows every screen to a role carrying every permission', async () => {
    openAs([...permissionNames], '/admin/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(await sidebarItems()).toEqual([
      'Dashboard',
      'Device Management',
      'Groups',
      'Treatment Records',
      'Roles',
      'Admin Logs',
      'Outbox',
      'Jobs',
      'User Management',
      'Customers',
      'Subscription',
      'App Update',
      'Field safety notices',
      'Alarms',
      'Break-glass Review',
      'Erasure Requests',
      'Retention',
      'Account',
    ]);
  });

  it('shows a Support role its machines and subscriptions, and no logs, users or health data', async () => {
    openAs(['devices.view', 'devices.edit', 'devices.enrol', 'subscriptions.view'], '/admin/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(await sidebarItems()).toEqual([
      'Dashboard',
      'Device Management',
      'Groups',
      'Roles',
      'Subscription',
      'App Update',
      'Alarms',
      'Account',
    ]);
  });

  it('leaves a role with no permission what every admin may open, and the brand goes to the Dashboard', async () => {
    openAs([], '/admin/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(await sidebarItems()).toEqual(['Dashboard', 'Roles', 'Account']);
    expect(screen.getByRole('link', { name: 'Device Admin' }).getAttribute('href')).toBe('/admin/dashboard');
  });

  it.each([
    // The Outbox and the Jobs are read as the Admin Logs are (features/outbox, features/jobs).
    ['logs.view', ['Admin Logs', 'Outbox', 'Jobs']],
    ['users.manage', ['User Management']],
    ['subscriptions.view', ['Subscription']],
  ] as const)('shows the items needing %s once the role carries it: %s', async (permission, items) => {
    openAs([permission], '/admin/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(await sidebarItems()).toEqual(['Dashboard', 'Roles', ...items, 'Account']);
  });
});

describe('a typed URL to a screen the role lacks', () => {
  it('shows the no-access page in the layout, naming the permission, and asks for none of its data', async () => {
    const router = openAs(['devices.view', 'subscriptions.view'], '/admin/user-management');
    expect(await screen.findByRole('heading', { level: 1, name: 'You do not have access' })).toBeTruthy();
    expect(
      screen.getByText(
        'This screen needs the permission "users.manage", which your role does not carry: see, add, edit and delete console and app users, and assign their machines.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(dataRequests('/api/v1/admin/users')).toEqual([]);

    await userEvent.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
  });

  it.each([
    ['/admin/view-patient/7', 'patients.view', '/api/v1/admin/patient'],
    ['/admin/device-details/7', 'devices.view', '/api/v1/admin/machine'],
    ['/admin/logs-management', 'logs.view', '/api/v1/admin/access-logs'],
    ['/admin/view-user/7', 'users.manage', '/api/v1/admin/users'],
  ])('%s names %s and sends no request for it', async (path, permission, data) => {
    openAs([], path);
    await screen.findByRole('heading', { level: 1, name: 'You do not have access' });
    expect(
      screen.getByText(new RegExp(`needs the permission "${permission.replace('.', '\\.')}"`)),
    ).toBeTruthy();
    // The profile is read (the role may have changed); the screen's own data is not.
    await waitFor(() => expect(dataRequests('/api/v1/admin/profile').length).toBeGreaterThan(0));
    expect(dataRequests(data)).toEqual([]);
  });
});

describe('a permission the API refuses after the console read the role', () => {
  it('shows the no-access page instead of toasts, and the sidebar follows the role read again', async () => {
    // sonner is there from the start, so a toast would show at once (it loads on first use otherwise).
    await preloadToasts();
    // The session and the console's first read of the role say logs.view; the role lost it just after.
    refuseLogs = true;
    carriedAtFirst = [...permissionNames];
    openAs(
      [...permissionNames],
      '/admin/logs-management',
      permissionNames.filter((p) => p !== 'logs.view'),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'You do not have access' })).toBeTruthy();
    expect(screen.getByText(/needs the permission "logs\.view"/)).toBeTruthy();
    await waitFor(async () => expect(await sidebarItems()).not.toContain('Admin Logs'));
    expect(dataRequests('/api/v1/admin/profile').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByText(permissionMessages.missing('logs.view'))).toBeNull();
  });

  it('reads the role when the console loads, so a permission granted since shows without signing in again', async () => {
    openAs([], '/admin/dashboard', ['users.manage']);
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    await waitFor(async () => expect(await sidebarItems()).toContain('User Management'));
  });
});
