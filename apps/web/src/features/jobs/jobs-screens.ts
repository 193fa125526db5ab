import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { fixed } from '#web/lib/paths.ts';

/** Only the sidebar links here, so the route is named here (lib/paths.ts, decision 067). */
const jobsRoute = fixed('/admin/jobs');

/** The Jobs screen (lib/admin-screens.ts): what the server did by itself, read as the Admin Logs are. */
export const jobsScreens: readonly AdminScreen[] = [
  {
    route: jobsRoute,
    title: 'Jobs',
    page: lazyPage(() => import('./pages/jobs-page.tsx'), 'JobsPage'),
    permission: 'logs.view',
    nav: { order: 46, icon: 'clock' },
  },
];
