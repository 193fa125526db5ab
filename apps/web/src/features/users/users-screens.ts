import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The console and app users' screens (lib/admin-screens.ts). */
export const usersScreens: readonly AdminScreen[] = [
  {
    route: paths.users,
    title: 'User Management',
    page: lazyPage(() => import('./pages/users-page.tsx'), 'UsersPage'),
    permission: 'users.manage',
    nav: { order: 50, icon: 'users', also: [paths.viewUser] },
  },
  {
    route: paths.viewUser,
    title: 'User Details',
    page: lazyPage(() => import('./pages/view-user-page.tsx'), 'ViewUserPage'),
    permission: 'users.manage',
  },
];
