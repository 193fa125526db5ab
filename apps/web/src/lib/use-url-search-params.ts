import { useCallback, useContext } from 'react';
import {
  UNSAFE_DataRouterContext,
  useLocation,
  useSearchParams,
  type DataRouter,
  type SetURLSearchParams,
} from 'react-router';

/**
 * Whether the admin is on their way off `pathname`: the router is loading another page (its route
 * code, say, on a slow network) or has already moved there while this page is still on screen.
 */
function leaving(router: DataRouter, pathname: string) {
  const { location, navigation } = router.state;
  if (location.pathname !== pathname) return true;
  return navigation.state !== 'idle' && navigation.location?.pathname !== pathname;
}

/**
 * useSearchParams for a page's own URL state (a list's page, size, sort, search, facets, view), whose
 * writes never replace a navigation the admin started (issue 35 item 8). A write is a navigation to
 * "?…" of this page: made while the router is still loading the page a View link opened, it would
 * cancel that one and leave the admin here (the debounced search did, when the next page's code took
 * 600 ms). So a write made while another page is on its way, or after it arrived but before this one
 * unmounted, is dropped: that page no longer shows this list.
 *
 * The router itself is asked at the moment of the write: the state hooks (useNavigation) are updated
 * in a React transition and may still say "idle" when a timer's write runs. Without a data router
 * (a test's plain router) writes go through as before.
 */
export function useUrlSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [params, setParams] = useSearchParams();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const { pathname } = useLocation();
  const write = useCallback<SetURLSearchParams>(
    (next, options) => {
      if (router && leaving(router, pathname)) return;
      setParams(next, options);
    },
    [router, pathname, setParams],
  );
  return [params, write];
}
