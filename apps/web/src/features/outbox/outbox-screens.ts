import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { fixed } from '#web/lib/paths.ts';

/** Only the sidebar links here, so the route is named here (lib/paths.ts, decision 067). */
const outboxRoute = fixed('/admin/outbox');

/** The Outbox's screen (lib/admin-screens.ts): what the server mailed, read as the Admin Logs are. */
export const outboxScreens: readonly AdminScreen[] = [
  {
    route: outboxRoute,
    title: 'Outbox',
    page: lazyPage(() => import('./pages/outbox-page.tsx'), 'OutboxPage'),
    permission: 'logs.view',
    nav: { order: 45, icon: 'mail' },
  },
];
