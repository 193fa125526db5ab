import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** Customers (clinics) and one customer's page (issue 39 items 1 and 2, decision 087). */
export const customersScreens: readonly AdminScreen[] = [
  {
    route: paths.customers,
    title: 'Customers',
    page: lazyPage(() => import('./pages/customers-page.tsx'), 'CustomersPage'),
    permission: 'customers.view',
    nav: { order: 55, icon: 'clinic', also: [paths.viewCustomer] },
  },
  {
    route: paths.viewCustomer,
    title: 'Customer Details',
    page: lazyPage(() => import('./pages/customer-page.tsx'), 'CustomerPage'),
    permission: 'customers.view',
  },
];
