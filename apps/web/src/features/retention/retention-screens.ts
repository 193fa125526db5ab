import { retentionScreenPath } from '@app/contract/retention-texts';
import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { fixed } from '#web/lib/paths.ts';

export const retentionRoute = fixed(retentionScreenPath);

/** Retention (decision 086): the schedule, the last runs and the legal holds. */
export const retentionScreens: readonly AdminScreen[] = [
  {
    route: retentionRoute,
    title: 'Retention',
    page: lazyPage(() => import('./pages/retention-page.tsx'), 'RetentionPage'),
    permission: 'retention.manage',
    nav: { order: 87, icon: 'clock' },
  },
];
