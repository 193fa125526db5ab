import { alarmsScreens } from '../features/alarms/alarms-screens.ts';
import { appUpdatesScreens } from '../features/app-updates/app-updates-screens.ts';
import { breakGlassScreens } from '../features/break-glass/break-glass-screens.ts';
import { customersScreens } from '../features/customers/customers-screens.ts';
import { dashboardScreens } from '../features/dashboard/dashboard-screens.ts';
import { devicesScreens } from '../features/devices/devices-screens.ts';
import { erasureScreens } from '../features/erasure/erasure-screens.ts';
import { groupsScreens } from '../features/groups/groups-screens.ts';
import { jobsScreens } from '../features/jobs/jobs-screens.ts';
import { logsScreens } from '../features/logs/logs-screens.ts';
import { outboxScreens } from '../features/outbox/outbox-screens.ts';
import { profileScreens } from '../features/profile/profile-screens.ts';
import { retentionScreens } from '../features/retention/retention-screens.ts';
import { rolesScreens } from '../features/roles/roles-screens.ts';
import { safetyNoticesScreens } from '../features/safety-notices/safety-notices-screens.ts';
import { subscriptionsScreens } from '../features/subscriptions/subscriptions-screens.ts';
import { usersScreens } from '../features/users/users-screens.ts';
import type { AdminScreen } from '#web/lib/admin-screens.ts';

/*
 * Every admin screen, as its feature declares it (lib/admin-screens.ts). The router (routes.tsx), the
 * sidebar (layouts/nav-items.ts) and the no-access page (layouts/screen-permissions.ts) read this list
 * and nothing else, so a new feature's screens take one line here. The sidebar's order is each
 * entry's `order`, not this list's.
 */
export const adminScreens: readonly AdminScreen[] = [
  ...dashboardScreens,
  ...devicesScreens,
  ...groupsScreens,
  ...rolesScreens,
  ...logsScreens,
  ...outboxScreens,
  ...jobsScreens,
  ...usersScreens,
  ...customersScreens,
  ...subscriptionsScreens,
  ...appUpdatesScreens,
  ...alarmsScreens,
  ...breakGlassScreens,
  ...safetyNoticesScreens,
  ...erasureScreens,
  ...retentionScreens,
  ...profileScreens,
];
