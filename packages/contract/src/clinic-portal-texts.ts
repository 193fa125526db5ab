/*
 * The clinic portal's own pages (issue 39 item 5): the clinic's machines, its treatment figures, its
 * billing and its monthly usage report. Paths, texts and labels, kept free of zod so the portal's
 * first screen loads little; the schemas are in clinic-portal.ts. Every route is access 'clinic' and
 * reads through row-level security as the signed-in user's customer (decision 090).
 */

const clinic = '/api/v1/clinic';

/** The module's own API paths (decision 067). */
export const clinicPortalApiPaths = {
  /** The clinic's machines now: search, sort, page. */
  machines: `${clinic}/machines`,
  /** Treatment counts and minutes per machine, doctor, week and month over a range (JSON). */
  figures: `${clinic}/figures`,
  /** The same, one grouping as a CSV file (`by`), streamed. */
  figuresExport: `${clinic}/figures/export`,
  /** The clinic's subscriptions with their payments. */
  subscriptions: `${clinic}/subscriptions`,
  /** GET `{ url }` of one payment's receipt. */
  receipt: (id: string, paymentId: string) => `${clinic}/subscriptions/${id}/payments/${paymentId}/receipt`,
  /** POST: pay a recurring plan's failed renewal now with the card on file. */
  retry: (id: string) => `${clinic}/subscriptions/${id}/retry`,
  /**
   * POST: `{ url }` of the provider's page where the clinic changes the plan's card (Stripe's Billing
   * Portal); `{ url: null }` with the demo provider, whose card the portal's own form sends to demoCard.
   */
  cardUpdate: (id: string) => `${clinic}/subscriptions/${id}/card-update`,
  demoCard: (id: string) => `${clinic}/subscriptions/${id}/demo-card`,
  /** A month's usage per machine (JSON for the printable page), and as CSV. */
  usage: `${clinic}/usage`,
  usageExport: `${clinic}/usage/export`,
  /** The manager's view of the clinic's audit rows (issue 39 item 6), newest first, paged. */
  activity: `${clinic}/activity`,
} as const;

/** The portal's screens (C's layout at /clinic holds them). */
export const clinicPortalScreenPaths = {
  machines: '/clinic/machines',
  figures: '/clinic/figures',
  billing: '/clinic/billing',
  usage: '/clinic/usage',
  activity: '/clinic/activity',
} as const;

export const clinicMachineSortKeys = [
  'machineNumber',
  'serialNumber',
  'location',
  'lastSeenAt',
  'licenceState',
  'licencePaidThrough',
] as const;
export type ClinicMachineSortKey = (typeof clinicMachineSortKeys)[number];

/** The figures' groupings; a CSV holds one of them. */
export const figureGroupings = ['machine', 'doctor', 'week', 'month'] as const;
export type FigureGrouping = (typeof figureGroupings)[number];
export const figureGroupingLabels: Record<FigureGrouping, string> = {
  machine: 'Per machine',
  doctor: 'Per doctor',
  week: 'Per week',
  month: 'Per month',
};

/** The longest range the figures take: two years of days. */
export const figuresMaxDays = 731;

/**
 * A machine the clinic held once but holds no more: row-level security shows the clinic only the
 * machines it holds now, so its old records are named by this and the id's start.
 */
export const formerMachineLabel = (deviceId: string) => `Former machine ${deviceId.slice(0, 8)}`;
export const noDoctorLabel = 'No doctor recorded';
/** A doctor registered while the machine was at another clinic: not this clinic's to name. */
export const otherClinicDoctorLabel = 'Doctor of another clinic';

export const clinicPortalMessages = {
  fromInvalid: 'from must be a day as YYYY-MM-DD',
  toInvalid: 'to must be a day as YYYY-MM-DD',
  toBeforeFrom: 'to must not be before from',
  rangeTooLong: `The range must be at most ${figuresMaxDays} days`,
  monthInvalid: 'month must be a month as YYYY-MM',
  byInvalid: `by must be one of ${figureGroupings.join(', ')}`,
  subscriptionNotFound: 'Subscription not found',
  retried: 'Payment made: the plan is paid again',
  retryFailed: (message: string) => `The payment failed: ${message}`,
  cardUpdateOpened: 'Opening the page to update the card',
  cardUpdateDemo: 'Enter the new card',
  notAtProvider: "This plan's card is not kept by the payment provider",
  cardUpdated: 'Your card has been updated',
} as const;

/** The pages' words. */
export const clinicPortalTexts = {
  machinesTitle: 'Machines',
  machinesEmpty: 'Your clinic has no machines yet.',
  machinesNoMatch: 'No machine matches the search.',
  figuresTitle: 'Treatment figures',
  figuresEmpty: 'No treatments in this range.',
  billingTitle: 'Billing',
  billingEmpty: 'Your clinic has no subscriptions yet.',
  paymentsEmpty: 'No payments yet.',
  usageTitle: 'Monthly usage report',
  usageEmpty: 'No machines in this month.',
  treatments: 'Treatments',
  minutes: 'Minutes',
  daysUsed: 'Days used',
  downloadCsv: 'Download CSV',
  print: 'Print',
  pay: 'Pay',
  retry: 'Pay now',
  updateCard: 'Update card',
  receipt: 'Receipt',
  activityTitle: 'Activity',
  activityEmpty: 'No activity recorded for your clinic yet.',
  /** Who acted, in a clinic's activity, for the supplier's own staff: their names are not the clinic's. */
  supplierActor: 'Your supplier',
} as const;

/** Admin Logs' words for the portal's routes (after /api/v1/clinic), beside clinic-users-texts.ts's. */
export const clinicPortalReadPhrases: [method: string, pattern: RegExp, text: string][] = [
  ['GET', /^\/machines$/, "Listed their clinic's machines"],
  ['GET', /^\/figures$/, "Viewed their clinic's treatment figures"],
  ['GET', /^\/figures\/export$/, "Downloaded their clinic's treatment figures"],
  ['GET', /^\/subscriptions$/, "Viewed their clinic's subscriptions"],
  ['GET', /^\/subscriptions\/:id\/payments\/:paymentId\/receipt$/, 'Opened a payment receipt'],
  ['POST', /^\/subscriptions\/:id\/retry$/, 'Paid a failed renewal'],
  ['POST', /^\/subscriptions\/:id\/card-update$/, 'Opened the card update page'],
  ['POST', /^\/subscriptions\/:id\/demo-card$/, "Updated a plan's card (demo provider)"],
  ['GET', /^\/usage$/, "Viewed their clinic's monthly usage report"],
  ['GET', /^\/usage\/export$/, "Downloaded their clinic's monthly usage report"],
  ['GET', /^\/activity$/, "Viewed their clinic's activity"],
];
