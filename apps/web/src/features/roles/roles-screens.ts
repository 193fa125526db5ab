import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The roles' screens (lib/admin-screens.ts): every admin may read them; changing one is a button's. */
export const rolesScreens: readonly AdminScreen[] = [
  {
    route: paths.roles,
    title: 'Roles',
    page: lazyPage(() => import('./pages/roles-page.tsx'), 'RolesPage'),
    nav: { order: 30, icon: 'shield', also: [paths.viewRole] },
  },
  {
    route: paths.viewRole,
    title: 'Role Details',
    page: lazyPage(() => import('./pages/view-role-page.tsx'), 'ViewRolePage'),
  },
];
