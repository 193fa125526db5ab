import type { Permission } from '@app/contract/permissions';
import type { NavIconName } from '#web/components/nav-icons.ts';
import type { LazyPage } from './lazy-page.ts';
import type { RoutePattern } from './paths.ts';

/*
 * What a feature says about each of its admin screens, in `features/<domain>/<domain>-screens.ts`.
 * The app lists those declarations once (app/screen-list.ts); the router (app/routes.tsx), the sidebar
 * (app/layouts/nav-items.ts) and the no-access page (app/layouts/screen-permissions.ts) all read them.
 *
 * The router fetches the screen list before the first admin screen (app/routes.tsx), ahead of the
 * layout and the page, so a declaration holds plain data and one lazy import: icons are named, not
 * imported, and the page loads when its route is visited (docs/architecture.md §6, §7).
 */
export type AdminScreen = {
  /** Its pattern in lib/paths.ts, which links build hrefs from. */
  route: RoutePattern;
  /** The document title, shown as '<title> | ADMIN' (docs/product.md §1). */
  title: string;
  /** `lazyPage(() => import('./pages/x-page.tsx'), 'XPage')`: a static import would load every page. */
  page: LazyPage;
  /**
   * The permission of the API route the screen reads (apps/api/src/lib/route-permissions.test.ts):
   * without it the sidebar hides the screen and the layout shows the no-access page (decision 047).
   * Left out when the screen reads only what every admin may.
   */
  permission?: Permission;
  /** Its sidebar entry, for a top-level screen. */
  nav?: NavEntry;
};

/** The sidebar groups the app defines (app/layouts/nav-items.ts): a folding item over its entries. */
export type NavGroupName = 'account';

export type NavEntry = {
  /** Its place in the sidebar: all entries are sorted by it; a group stands at its first entry. */
  order: number;
  icon: NavIconName;
  /** The label, when it is not the screen's title. */
  label?: string;
  /** Other routes for which this entry is the active one (the screen's detail pages). */
  also?: readonly RoutePattern[];
  /** The group it folds into, if any. */
  group?: NavGroupName;
};
