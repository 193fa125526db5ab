import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The dashboard's screens (lib/admin-screens.ts): every admin may open them. */
export const dashboardScreens: readonly AdminScreen[] = [
  {
    route: paths.dashboard,
    title: 'Dashboard',
    page: lazyPage(() => import('./pages/dashboard-page.tsx'), 'DashboardPage'),
    nav: { order: 10, icon: 'dashboard' },
  },
  {
    route: paths.widgets,
    title: 'Widgets',
    page: lazyPage(() => import('./pages/widgets-page.tsx'), 'WidgetsPage'),
  },
];
