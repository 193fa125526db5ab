import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The subscriptions' screens (lib/admin-screens.ts): the list and one subscription's page; the customer's checkout is not the console's. */
export const subscriptionsScreens: readonly AdminScreen[] = [
  {
    route: paths.subscriptions,
    title: 'Subscription',
    page: lazyPage(() => import('./pages/subscriptions-page.tsx'), 'SubscriptionsPage'),
    permission: 'subscriptions.view',
    nav: { order: 60, icon: 'card', also: [paths.viewSubscription] },
  },
  {
    route: paths.viewSubscription,
    title: 'Subscription Details',
    page: lazyPage(() => import('./pages/view-subscription-page.tsx'), 'ViewSubscriptionPage'),
    permission: 'subscriptions.view',
  },
];
