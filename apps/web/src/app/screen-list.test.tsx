import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noAccessTexts, permissionNames } from '@app/contract/permissions';
import { navIcons } from '#web/components/nav-icons.ts';
import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { clearSession } from '#web/lib/session-store.ts';
import { signInWith } from '#web/test/session.ts';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { isActive, isGroup, navItemsFor, type NavItem, type NavLeaf } from './layouts/nav-items.ts';
import { screenPermission } from './layouts/screen-permissions.ts';
import { routerOptions, routes } from './routes.tsx';
import { adminScreens } from './screen-list.ts';

/*
 * A feature declares its screens (features/<domain>/<domain>-screens.ts) and the app lists them once
 * (screen-list.ts): the router, the sidebar and the no-access page each follow every declaration.
 */

/** A URL the route matches: its parameters filled in. */
const urlOf = (pattern: string) => pattern.replace(/:\w+\??/g, '7');

/** A console router that has been to a path under /admin/ matching no screen: nothing was loaded. */
async function patchedRouter() {
  const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: ['/admin/no-such-screen'] });
  await waitFor(() => expect(router.state.initialized).toBe(true));
  return router;
}

const leavesOf = (items: readonly NavItem[]): NavLeaf[] =>
  items.flatMap((item) => (isGroup(item) ? item.children : [item]));

const withNav = adminScreens.filter(
  (s): s is AdminScreen & { nav: NonNullable<AdminScreen['nav']> } => s.nav !== undefined,
);
const withPermission = adminScreens.filter((s) => s.permission !== undefined);

// The screens' requests are held: this file looks at what the console does around them.
serveTestApi(() => heldAnswer().answer);
afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

describe('the screen list', () => {
  it('names each route once and each sidebar place once', () => {
    const routesOf = adminScreens.map((s) => s.route.path);
    expect(new Set(routesOf).size).toBe(routesOf.length);
    const orders = withNav.map((s) => s.nav.order);
    expect(new Set(orders).size).toBe(orders.length);
    expect(withNav.length).toBeGreaterThan(0);
    expect(withPermission.length).toBeGreaterThan(0);
  });
});

describe('the router', () => {
  it('keeps the admin screens off the sign-in screen: its route table holds none of them', () => {
    for (const { route } of adminScreens) {
      expect(matchRoutes(routes, urlOf(route.path))?.at(-1)?.route.path).toBe('*');
    }
  });

  it.each(adminScreens.map((s) => [s.route.path, s] as const))(
    'serves %s, once under /admin/ was visited, with its declared title and page inside the admin layout',
    async (path, declared) => {
      const router = await patchedRouter();
      const matches = matchRoutes(router.routes, urlOf(path)) ?? [];
      const screenRoute = matches.at(-1)?.route;
      expect(screenRoute?.path).toBe(path);
      expect(screenRoute?.handle).toEqual({ title: declared.title });
      expect(screenRoute?.lazy).toBe(declared.page);
      // Behind the guard of /admin, in the layout's screen outlet (and its error boundary).
      expect(matches.map((m) => m.route.id)).toContain('admin-screens');
      expect(matches.some((m) => m.route.path === '/admin')).toBe(true);
    },
  );

  it('adds each screen once, however many paths under /admin/ are visited', async () => {
    const router = await patchedRouter();
    for (const path of ['/admin/elsewhere', '/admin/view-nothing/7', '/admin/no-such-screen']) {
      await act(() => router.navigate(path));
    }
    const outlet = matchRoutes(router.routes, urlOf(adminScreens[0]!.route.path))?.find(
      (m) => m.route.id === 'admin-screens',
    );
    expect(outlet?.route.children?.map((r) => r.path)).toEqual(adminScreens.map((s) => s.route.path));
  });
});

describe('the sidebar', () => {
  const leaves = leavesOf(navItemsFor(permissionNames));

  it('has one item per declared entry, in the order the entries give, and no other', () => {
    const byOrder = [...withNav].sort((a, b) => a.nav.order - b.nav.order);
    expect(leaves.map((leaf) => leaf.to)).toEqual(byOrder.map((s) => s.route.path));
  });

  it.each(withNav.map((s) => [s.route.path, s] as const))(
    'shows %s with its declared label, icon, group and active routes',
    (path, { title, nav, permission }) => {
      const items = navItemsFor(permissionNames);
      const leaf = leavesOf(items).find((l) => l.to === path);
      expect(leaf?.label).toBe(nav.label ?? title);
      expect(leaf?.icon).toBe(navIcons[nav.icon]);
      const group = items.find((item) => isGroup(item) && item.children.includes(leaf!));
      expect(group && isGroup(group) ? group.name : undefined).toBe(nav.group);
      for (const route of [{ path }, ...(nav.also ?? [])]) {
        expect(isActive(leaf!, urlOf(route.path))).toBe(true);
      }
      // A role without the screen's permission does not see it.
      if (permission) {
        const without = permissionNames.filter((p) => p !== permission);
        expect(leavesOf(navItemsFor(without)).map((l) => l.to)).not.toContain(path);
      }
    },
  );
});

describe('the no-access page', () => {
  it.each(adminScreens.map((s) => [s.route.path, s.permission ?? null] as const))(
    '%s needs %s',
    (path, permission) => {
      expect(screenPermission(urlOf(path))).toBe(permission);
    },
  );

  it('stands in for a screen whose declared permission the role lacks, naming it', async () => {
    // Every screen's permission is checked above; one rendered screen per permission keeps this file quick.
    const onePerPermission = withPermission.filter(
      (s, i) => withPermission.findIndex((other) => other.permission === s.permission) === i,
    );
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    signInWith([]);
    const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: ['/admin/dashboard'] });
    render(<RouterProvider router={router} />);
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    for (const { route, permission } of onePerPermission) {
      await act(() => router.navigate(urlOf(route.path)));
      expect(await screen.findByRole('heading', { level: 1, name: noAccessTexts.title })).toBeTruthy();
      expect(screen.getByText(noAccessTexts.missing(permission!))).toBeTruthy();
    }
  });
});
