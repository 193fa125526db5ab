import { matchPath } from 'react-router';
import type { Permission } from '@app/contract/permissions';
import { paths, type RoutePattern } from '#web/lib/paths.ts';

/*
 * The one place that says which permission each console screen needs: the sidebar hides what the
 * admin cannot open and the layout shows the no-access page instead of the screen (decision 047).
 * Each is the permission of the API route the screen reads (apps/api/src/lib/route-permissions.test.ts);
 * a screen missing here reads only what every admin may (dashboard, roles, their own profile).
 * Kept out of lib/paths.ts: that registry is on the sign-in screen, this is not (docs/architecture.md §7).
 */
const screenPermissions: readonly (readonly [RoutePattern, Permission])[] = [
  [paths.devices, 'devices.view'],
  [paths.deviceDetails, 'devices.view'],
  [paths.viewDoctor, 'patients.view'],
  [paths.viewPatient, 'patients.view'],
  [paths.viewTechnician, 'patients.view'],
  [paths.treatments, 'patients.view'],
  [paths.logs, 'logs.view'],
  [paths.users, 'users.manage'],
  [paths.viewUser, 'users.manage'],
  [paths.subscriptions, 'subscriptions.view'],
  // The list of published updates is about what the machines run; publishing one is a button's.
  [paths.appUpdates, 'devices.view'],
  // Alarms are about the machines (decision 049); acknowledging and resolving need devices.edit.
  [paths.alarms, 'devices.view'],
];

/** The permission the screen at this path needs, or null when every admin may open it. */
export function screenPermission(pathname: string): Permission | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  return screenPermissions.find(([route]) => matchPath(route.path, path) !== null)?.[1] ?? null;
}
