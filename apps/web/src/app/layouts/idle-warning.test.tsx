import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { getSessionDeadline, SESSION_DEADLINE_KEY } from '#web/lib/session-expiry.ts';
import {
  clearSession,
  getToken,
  reloadSessionFromStorage,
  SESSION_STORAGE_KEY,
} from '#web/lib/session-store.ts';
import { startTestServer } from '#web/test/http-server.ts';
import { routerOptions, routes } from '../routes.tsx';
import { IdleWarning } from './idle-warning.tsx';

let server: Awaited<ReturnType<typeof startTestServer>>;
/** What the next GET session answers as seconds left. */
let secondsLeft = '1800';

beforeAll(async () => {
  server = await startTestServer((request) => {
    if (request.url.startsWith('/api/v1/admin/session'))
      return {
        status: 200,
        body: { code: 200, msg: 'Session extended', data: null },
        headers: { 'x-session-expires-in': secondsLeft },
      };
    return { status: 200, body: { code: 200, msg: 'ok', data: null } };
  });
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  clearSession();
});

const signIn = () => {
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({
      details: { _id: '1', userName: 'admin', email: 'admin@example.com', token: 'a.b.c', timeZone: 'UTC' },
      toggle: true,
      deviceDetail: null,
      userDetails: null,
    }),
  );
  reloadSessionFromStorage();
};

/** What another tab does to this one: write localStorage, and the browser fires `storage` here. */
const fromAnotherTab = (key: string, value: string | null) => {
  act(() => {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
  });
};

describe('idle warning', () => {
  it('asks for the deadline, warns in a labelled dialog a minute before, and "Stay signed in" calls the server and closes it', async () => {
    signIn();
    secondsLeft = '62';
    let signedOut = 0;
    render(<IdleWarning onSignOut={() => (signedOut += 1)} onExpired={() => undefined} />);
    await waitFor(() => expect(getSessionDeadline()).not.toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();

    const dialog = await screen.findByRole('dialog', { name: 'Are you still there?' }, { timeout: 5000 });
    expect(dialog.textContent).toMatch(/You will be signed out in \d+ seconds because of inactivity\./);
    const stay = screen.getByRole('button', { name: 'Stay signed in' });
    expect(document.activeElement).toBe(stay);

    secondsLeft = '1800';
    const before = server.requests.length;
    await userEvent.click(stay);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = server.requests.slice(before).find((r) => r.url === '/api/v1/admin/session');
    expect(call?.method).toBe('GET');
    expect(call?.headers.authorization).toBe('Bearer a.b.c');
    expect(getSessionDeadline()! - Date.now()).toBeGreaterThan(1790_000);
    expect(signedOut).toBe(0);
  });

  it('offers "Sign out", and signs out by itself when the time runs out', async () => {
    signIn();
    localStorage.setItem(SESSION_DEADLINE_KEY, String(Date.now() + 2000));
    fromAnotherTab(SESSION_DEADLINE_KEY, String(Date.now() + 2000));
    let signedOut = 0;
    let expired = 0;
    render(<IdleWarning onSignOut={() => (signedOut += 1)} onExpired={() => (expired += 1)} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(signedOut).toBe(1);
    await waitFor(() => expect(expired).toBe(1), { timeout: 5000 });
  });

  it('closes when another tab keeps the session alive', async () => {
    signIn();
    fromAnotherTab(SESSION_DEADLINE_KEY, String(Date.now() + 30_000));
    render(<IdleWarning onSignOut={() => undefined} onExpired={() => undefined} />);
    expect(await screen.findByRole('dialog', { name: 'Are you still there?' })).toBeTruthy();
    fromAnotherTab(SESSION_DEADLINE_KEY, String(Date.now() + 1800_000));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('sessions across tabs', () => {
  it('a sign-out in another tab signs this tab out to the sign-in page', async () => {
    signIn();
    secondsLeft = '1800';
    const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: ['/admin/dashboard'] });
    render(<RouterProvider router={router} />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
    fromAnotherTab(
      SESSION_STORAGE_KEY,
      JSON.stringify({ details: null, toggle: true, deviceDetail: null, userDetails: null }),
    );
    expect(getToken()).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-admin'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeTruthy();
    // The shared deadline goes with the session, so no tab is left counting down.
    expect(getSessionDeadline()).toBeNull();
  });

  it('a sign-in in another tab takes this tab from the sign-in page into the console', async () => {
    const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: ['/login-admin'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeTruthy();
    fromAnotherTab(
      SESSION_STORAGE_KEY,
      JSON.stringify({
        details: { _id: '2', email: 'b@example.com', token: 'x.y.z' },
        toggle: true,
        deviceDetail: null,
        userDetails: null,
      }),
    );
    expect(getToken()).toBe('x.y.z');
    // docs/product.md §2.1: a signed-in admin on the sign-in screen goes to /admin/device.
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/device'));
  });
});
