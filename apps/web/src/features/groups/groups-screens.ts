import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { fixed } from '#web/lib/paths.ts';

/** Only the sidebar links here, so the route is named here (lib/paths.ts, decision 067). */
const groupsRoute = fixed<{ page?: number; limit?: number; search?: string }>('/admin/groups');

/** The machine groups' screen (lib/admin-screens.ts, issue 37 item 1): seeing them is seeing the machines. */
export const groupsScreens: readonly AdminScreen[] = [
  {
    route: groupsRoute,
    title: 'Groups',
    page: lazyPage(() => import('./pages/groups-page.tsx'), 'GroupsPage'),
    // Creating, renaming, deleting and setting a window or settings are buttons for groups.manage.
    permission: 'devices.view',
    // Beside Device Management (20): groups are of its machines.
    nav: { order: 22, icon: 'device' },
  },
];
