import { z } from 'zod';
import { failedCommandDays } from './device-filters.ts';
import { envelope } from './envelope.ts';

/**
 * The dashboard's Operations section (docs/product.md, Dashboard). Each group is present only when
 * the admin's role carries its permission (decision 050): machines and alarms with devices.view,
 * subscriptions with subscriptions.view, treatments with patients.view.
 */
const operationsMachinesSchema = z.object({
  online: z.number().int(),
  offline: z.number().int(),
  neverSeen: z.number().int(),
  /** The quiet time after which a machine counts as offline (DEVICE_OFFLINE_MINUTES). */
  offlineMinutes: z.number().int(),
});
const operationsSubscriptionsSchema = z.object({
  pending: z.number().int(),
  failed: z.number().int(),
  expiringIn7Days: z.number().int(),
});
/** Machines whose licence needs an admin (issue 34), each figure the total of Device Management's filter. */
const operationsLicencesSchema = z.object({
  grace: z.number().int(),
  lapsed: z.number().int(),
  /** Active licences whose paid time ends within `licenceLapsingDays`. */
  lapsing: z.number().int(),
});
/** Remote operations (issue 37): machines an admin should look at, each the total of a Device Management filter. */
const operationsRemoteSchema = z.object({
  /** Settings not applied yet (the Settings filter's "drift"). */
  settingsDrift: z.number().int(),
  /** A command failed within failedCommandDays (the Commands filter). */
  failedCommands: z.number().int(),
});
/** One UTC day of the last 30, oldest first, today last. */
const treatmentDaySchema = z.object({ day: z.string(), count: z.number().int() });
const operationsTreatmentsSchema = z.object({
  today: z.number().int(),
  last30Days: z.number().int(),
  days: z.array(treatmentDaySchema),
});
/**
 * The spec's four tiles with real figures over the last `highlightDays` days (issue 35 item 6), each
 * present only with the permission of the list it links to: new payment links and new customers
 * (subscriptions.view), console users added (users.manage), admins who signed in (logs.view).
 */
const operationsHighlightsSchema = z.object({
  newOrders: z.number().int().optional(),
  newCustomers: z.number().int().optional(),
  userRegistrations: z.number().int().optional(),
  uniqueVisitors: z.number().int().optional(),
});
const operationsSchema = z.object({
  highlights: operationsHighlightsSchema,
  machines: operationsMachinesSchema.optional(),
  openAlarms: z.number().int().optional(),
  /** With devices.view, like the machines: the figures link to Device Management. */
  licences: operationsLicencesSchema.optional(),
  /** With devices.view: settings drift and failed commands. */
  remote: operationsRemoteSchema.optional(),
  subscriptions: operationsSubscriptionsSchema.optional(),
  treatments: operationsTreatmentsSchema.optional(),
});
export type Operations = z.infer<typeof operationsSchema>;
export type TreatmentDay = z.infer<typeof treatmentDaySchema>;
export const operationsResponseSchema = envelope(operationsSchema);

/** The days the treatments chart covers, today included. */
export const treatmentChartDays = 30;
/** The tiles' window: the last 30 days, today included. */
export const highlightDays = 30;
/** "Expiring in 7 days". */
export const expiringWithinDays = 7;
/** "Lapsing within 14 days": the licence figure and Device Management's Licence ends filter. */
export const licenceLapsingDays = 14;

/** The four tiles: the spec's labels, and what each counts (its tooltip). */
export const highlightTiles = {
  newOrders: {
    label: 'New Orders',
    help: `Payment links created in the last ${highlightDays} days`,
  },
  newCustomers: {
    label: 'New Customer',
    help: `Customers (by email) whose first payment link was created in the last ${highlightDays} days`,
  },
  userRegistrations: {
    label: 'User Registrations',
    help: `Console users added in the last ${highlightDays} days`,
  },
  uniqueVisitors: {
    label: 'Unique Visitors',
    help: `Admins who signed in during the last ${highlightDays} days`,
  },
} as const;
export type HighlightTile = keyof typeof highlightTiles;

export const dashboardTexts = {
  operations: 'Operations',
  machines: 'Machines',
  online: 'Online',
  offline: 'Offline',
  neverSeen: 'Never seen',
  openAlarms: 'Open alarms',
  subscriptions: 'Subscriptions',
  pending: 'Pending',
  failed: 'Failed',
  expiring: 'Expiring in 7 days',
  licences: 'Licences',
  inGrace: 'In grace',
  lapsed: 'Lapsed',
  lapsing: `Lapsing within ${licenceLapsingDays} days`,
  remote: 'Remote operations',
  settingsDrift: 'Settings not applied',
  failedCommands: `Failed commands, last ${failedCommandDays} days`,
  treatments: 'Treatments',
  today: 'Today',
  last30Days: 'Last 30 days',
  chartTitle: 'Treatments per day, last 30 days',
  nothingToShow: 'Your role shows no operations figures.',
  loadFailed: 'The operations figures could not be loaded.',
} as const;
