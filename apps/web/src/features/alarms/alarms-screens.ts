import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The alarms' screen (lib/admin-screens.ts). */
export const alarmsScreens: readonly AdminScreen[] = [
  {
    route: paths.alarms,
    title: 'Alarms',
    page: lazyPage(() => import('./pages/alarms-page.tsx'), 'AlarmsPage'),
    // Alarms are about the machines (decision 049); acknowledging and resolving need devices.edit.
    permission: 'devices.view',
    nav: { order: 80, icon: 'bell' },
  },
];
