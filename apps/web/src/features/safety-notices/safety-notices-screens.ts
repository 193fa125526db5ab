import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { safetyNoticeRoute, safetyNoticesRoute } from './safety-notices-route.ts';

/** Field safety notices (issue 38 item 6, decision 084): the list and one notice's page. */
export const safetyNoticesScreens: readonly AdminScreen[] = [
  {
    route: safetyNoticesRoute,
    title: 'Field Safety Notices',
    page: lazyPage(() => import('./pages/safety-notices-page.tsx'), 'SafetyNoticesPage'),
    permission: 'safety-notices.manage',
    nav: { order: 75, icon: 'bell', label: 'Field safety notices', also: [safetyNoticeRoute] },
  },
  {
    route: safetyNoticeRoute,
    title: 'Field Safety Notice',
    page: lazyPage(() => import('./pages/safety-notice-page.tsx'), 'SafetyNoticePage'),
    permission: 'safety-notices.manage',
  },
];
