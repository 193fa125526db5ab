import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The app updates' screen (lib/admin-screens.ts). */
export const appUpdatesScreens: readonly AdminScreen[] = [
  {
    route: paths.appUpdates,
    title: 'App Update',
    page: lazyPage(() => import('./pages/app-updates-page.tsx'), 'AppUpdatesPage'),
    // The list of published updates is about what the machines run; publishing one is a button's.
    permission: 'devices.view',
    nav: { order: 70, icon: 'upload' },
  },
];
