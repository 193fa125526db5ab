import { breakGlassScreenPath } from '@app/contract/break-glass-texts';
import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { fixed } from '#web/lib/paths.ts';

/** Only the sidebar and this feature's bell link here, so the route is named here (decision 067). */
export const breakGlassRoute = fixed<{ state?: 'open' | 'signed-off'; page?: number; limit?: number }>(
  breakGlassScreenPath,
);

/** The break-glass review (decision 082): every emergency access to a patient, until signed off. */
export const breakGlassScreens: readonly AdminScreen[] = [
  {
    route: breakGlassRoute,
    title: 'Break-glass Review',
    page: lazyPage(() => import('./pages/break-glass-page.tsx'), 'BreakGlassPage'),
    permission: 'security.review',
    nav: { order: 85, icon: 'emergency' },
  },
];
