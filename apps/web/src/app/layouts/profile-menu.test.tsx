import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useApplyColorMode } from '#web/lib/use-color-mode.ts';
import { failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { ProfileMenu } from './profile-menu.tsx';

signedInForEachTest();

// The admin's colour mode as the server keeps it (decision 054); a save can be made to fail.
let serverMode = 'light';
let failSave = false;
beforeEach(() => {
  serverMode = 'light';
  failSave = false;
});
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/preferences') return ok({ lists: {}, colorMode: serverMode });
  if (url.pathname === '/api/v1/admin/preferences/color-mode') {
    if (failSave) return failure(500, 'Could not save');
    serverMode = (JSON.parse(request.body) as { colorMode: string }).colorMode;
    return ok({ colorMode: serverMode }, 'Preferences saved');
  }
  return failure(404, 'Not found');
});

/** A browser whose prefers-color-scheme the test sets (jsdom has no matchMedia). */
function fakeSystemScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const state = { dark };
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query.includes('dark') && state.dark;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return (next: boolean) => {
    state.dark = next;
    listeners.forEach((listener) => listener());
  };
}
afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.removeAttribute('data-bs-theme');
});

function TopOfConsole() {
  useApplyColorMode();
  return <ProfileMenu name="admin" onLogout={() => {}} />;
}
const renderMenu = () =>
  renderPage({ path: '/admin/dashboard', Component: TopOfConsole, at: '/admin/dashboard' });
const theme = () => document.documentElement.getAttribute('data-bs-theme');
const openMenu = async () => {
  screen.getByRole('button', { name: /admin/ }).focus();
  await userEvent.keyboard('{Enter}');
  return within(screen.getByRole('group', { name: 'Theme' }));
};

describe('the Theme choice of the profile menu', { timeout: 20_000 }, () => {
  it("applies the admin's mode from the server, and Dark picked by keyboard is saved and shown", async () => {
    fakeSystemScheme(true);
    renderMenu();
    await waitFor(() => expect(theme()).toBe('light'));
    const group = await openMenu();
    expect(group.getByRole('menuitemradio', { name: 'Light' }).getAttribute('aria-checked')).toBe('true');
    // Profile, Update Profile, Change Password, then Light, Dark.
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(group.getByRole('menuitemradio', { name: 'Dark' }));
    await userEvent.keyboard('{Enter}');

    expect(theme()).toBe('dark');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /admin/ }));
    await waitFor(() => expect(serverMode).toBe('dark'));
    const save = api.requests.find((r) => r.url.endsWith('/color-mode'))!;
    expect(save.method).toBe('PUT');
    expect(JSON.parse(save.body)).toEqual({ colorMode: 'dark' });
    // Remembered for the next load's first paint.
    expect(localStorage.getItem('colorMode')).toBe('dark');
  });

  it('keeps every item in reach of the arrows: End reaches Logout, and the Theme items in order', async () => {
    fakeSystemScheme(false);
    renderMenu();
    await waitFor(() => expect(theme()).toBe('light'));
    await openMenu();
    await userEvent.keyboard('{End}');
    expect(document.activeElement?.textContent).toBe('Logout');
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement?.textContent).toContain('Use system setting');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Profile');
  });

  it("follows the browser's colour scheme live with 'Use system setting'", async () => {
    const setSystemDark = fakeSystemScheme(false);
    renderMenu();
    await waitFor(() => expect(theme()).toBe('light'));
    const group = await openMenu();
    await userEvent.click(group.getByRole('menuitemradio', { name: 'Use system setting' }));
    await waitFor(() => expect(serverMode).toBe('system'));
    expect(theme()).toBe('light');
    act(() => setSystemDark(true));
    expect(theme()).toBe('dark');
    act(() => setSystemDark(false));
    expect(theme()).toBe('light');
  });

  it('toasts a failed save and goes back to the mode the server kept', async () => {
    fakeSystemScheme(false);
    failSave = true;
    renderMenu();
    await waitFor(() => expect(theme()).toBe('light'));
    const group = await openMenu();
    await userEvent.click(group.getByRole('menuitemradio', { name: 'Dark' }));
    expect(await screen.findByText('Could not save')).toBeTruthy();
    await waitFor(() => expect(theme()).toBe('light'));
    const again = await openMenu();
    expect(again.getByRole('menuitemradio', { name: 'Light' }).getAttribute('aria-checked')).toBe('true');
    expect(serverMode).toBe('light');
  });
});
