import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The admin logs' screen (lib/admin-screens.ts). */
export const logsScreens: readonly AdminScreen[] = [
  {
    route: paths.logs,
    title: 'Admin Logs',
    page: lazyPage(() => import('./pages/logs-page.tsx'), 'LogsPage'),
    permission: 'logs.view',
    nav: { order: 40, icon: 'logs' },
  },
];
