import type { AppModule } from '#api/app-module.ts';
import { accountModule } from './account/account-module.ts';
import { alarmsModule } from './alarms/alarms-module.ts';
import { appUpdatesModule } from './app-updates/app-updates-module.ts';
import { auditChainModule } from './audit-chain/audit-chain-module.ts';
import { authModule } from './auth/auth-module.ts';
import { breakGlassModule } from './break-glass/break-glass-module.ts';
import { clinicPortalModule } from './clinic-portal/clinic-portal-module.ts';
import { clinicUsersModule } from './clinic-users/clinic-users-module.ts';
import { dashboardModule } from './dashboard/dashboard-module.ts';
import { deviceApiModule } from './device-api/device-api-module.ts';
import { commandsModule } from './commands/commands-module.ts';
import { customersModule } from './customers/customers-module.ts';
import { maintenanceWindowsModule } from './maintenance-windows/maintenance-windows-module.ts';
import { machineSettingsModule } from './machine-settings/machine-settings-module.ts';
import { clockControlModule } from './clock-control/clock-control-module.ts';
import { deviceUsersModule } from './device-users/device-users-module.ts';
import { devicesModule } from './devices/devices-module.ts';
import { erasureModule } from './erasure/erasure-module.ts';
import { groupsModule } from './groups/groups-module.ts';
import { healthModule } from './health/health-module.ts';
import { housekeepingModule } from './housekeeping/housekeeping-module.ts';
import { jobsModule } from './jobs/jobs-module.ts';
import { licenceNoticesModule } from './licence-notices/licence-notices-module.ts';
import { licenceTokensModule } from './licence-tokens/licence-tokens-module.ts';
import { licencesModule } from './licences/licences-module.ts';
import { logsModule } from './logs/logs-module.ts';
import { outboxModule } from './outbox/outbox-module.ts';
import { preferencesModule } from './preferences/preferences-module.ts';
import { profileModule } from './profile/profile-module.ts';
import { recordHistoryModule } from './record-history/record-history-module.ts';
import { retentionModule } from './retention/retention-module.ts';
import { rolesModule } from './roles/roles-module.ts';
import { safetyNoticesModule } from './safety-notices/safety-notices-module.ts';
import { signaturesModule } from './signatures/signatures-module.ts';
import { subscriptionsModule } from './subscriptions/subscriptions-module.ts';
import { treatmentsModule } from './treatments/treatments-module.ts';
import { usersModule } from './users/users-module.ts';

/**
 * Every module of the API, in the order app.ts registers them (the OpenAPI document lists their
 * routes in this order). Adding a module is adding it here: its folder declares the rest
 * (app-module.ts).
 */
export const appModules: readonly AppModule[] = [
  healthModule,
  authModule,
  profileModule,
  accountModule,
  appUpdatesModule,
  rolesModule,
  usersModule,
  logsModule,
  auditChainModule,
  devicesModule,
  deviceUsersModule,
  breakGlassModule,
  erasureModule,
  treatmentsModule,
  preferencesModule,
  dashboardModule,
  subscriptionsModule,
  customersModule,
  deviceApiModule,
  alarmsModule,
  outboxModule,
  jobsModule,
  licencesModule,
  licenceNoticesModule,
  licenceTokensModule,
  housekeepingModule,
  groupsModule,
  commandsModule,
  maintenanceWindowsModule,
  machineSettingsModule,
  recordHistoryModule,
  retentionModule,
  safetyNoticesModule,
  signaturesModule,
  clinicUsersModule,
  clinicPortalModule,
  // Last, and only with CLOCK_CONTROL=1: the e2e tests' movable clock.
  clockControlModule,
];
