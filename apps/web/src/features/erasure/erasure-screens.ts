import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { erasureRequestRoute, erasureRoute } from './erasure-routes.ts';

/** Erasure requests (decision 085): the list by state, and one request, where it is decided. */
export const erasureScreens: readonly AdminScreen[] = [
  {
    route: erasureRoute,
    title: 'Erasure Requests',
    page: lazyPage(() => import('./pages/erasure-requests-page.tsx'), 'ErasureRequestsPage'),
    permission: 'erasure.manage',
    // Beside Break-glass Review (85): both are about patients' data.
    nav: { order: 86, icon: 'shield', also: [erasureRequestRoute] },
  },
  {
    route: erasureRequestRoute,
    title: 'Erasure Request',
    page: lazyPage(() => import('./pages/erasure-request-page.tsx'), 'ErasureRequestPage'),
    permission: 'erasure.manage',
  },
];
