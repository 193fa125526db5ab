import { matchPath } from 'react-router';
import type { Permission } from '@app/contract/permissions';
import { adminScreens } from '../screen-list.ts';

/*
 * Which permission each console screen needs, as its feature declares it (lib/admin-screens.ts): the
 * sidebar hides what the admin cannot open and the layout shows the no-access page instead of the
 * screen (decision 047). A screen that declares none reads only what every admin may.
 */

/** The permission the screen at this path needs, or null when every admin may open it. */
export function screenPermission(pathname: string): Permission | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  return adminScreens.find(({ route }) => matchPath(route.path, path) !== null)?.permission ?? null;
}
