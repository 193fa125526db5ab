import { useEffect } from 'react';
import { Outlet, useMatches, useNavigate, useNavigation } from 'react-router';
import { setNavigator } from '../lib/navigation.ts';
import { pageTitle } from '../lib/page-title.ts';
import { LazyToaster } from './lazy-toaster.tsx';

export type RouteHandle = { title?: string };

/** docs/product.md §1: '<page title> | ADMIN', or the product title for a path without one. */
function usePageTitle() {
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  useEffect(() => {
    document.title = pageTitle(title?.title);
  }, [title]);
}

export function RootLayout() {
  const navigate = useNavigate();
  const navigation = useNavigation();
  useEffect(() => setNavigator((to) => void navigate(to, { replace: true })), [navigate]);
  usePageTitle();

  return (
    <>
      {navigation.state === 'loading' ? <div className="route-progress" aria-hidden="true" /> : null}
      <Outlet />
      <LazyToaster />
    </>
  );
}
