import { z } from 'zod';
import { exportColumnsQuery } from './export-columns.ts';
import { envelope } from './envelope.ts';
import { pageQuery, requiredText, strictObject } from './fields.ts';
import { paymentProviders, planTypes, type PlanType, type SubscriptionStatus } from './checkout.ts';

// The checkout's texts and enums live in checkout.ts (kept free of zod for the public pages); the
// rest of the code imports them from here, beside the schemas.
export {
  checkoutMessages,
  oneTimeLabel,
  planTypeLabels,
  planTypes,
  subscriptionStatuses,
  type PaymentProviderName,
  type PlanType,
  type SubscriptionStatus,
} from './checkout.ts';

/** docs/product.md §5.10 "Subscription": the form's messages, used by the API and the Add Subscription modal. */
export const subscriptionMessages = {
  fullNameRequired: 'Full name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  machineSerialNumberRequired: 'Machine serial number is required',
  amountNumber: 'Amount must be a number',
  amountPositive: 'Amount must be greater than 0',
  amountRequired: 'Amount is required',
  paymentTypeRequired: 'Payment Type is required',
  planTypeRequired: 'Plan type is required',
  // Ours (the spec is silent): bounds a card processor accepts and the wrong-type answers.
  amountCents: 'Amount can have at most 2 decimal places',
  amountTooLarge: 'Amount must be at most 999999.99',
  paymentTypeInvalid: 'Payment Type must be Recurring or One Time',
  planTypeInvalid: 'Plan type must be month or year',
  created: 'Subscription created and the payment link sent',
  /** Ours (decision 068): a subscription belongs to a machine of the fleet. */
  machineNotFound: 'No machine of the fleet has this serial number',
} as const;

export const subscriptionStatusLabels: Record<SubscriptionStatus, string> = {
  1: 'Pending',
  2: 'Complete',
  3: 'Expired',
  4: 'Failed',
};
export const subscriptionStatusLabel = (status: unknown): string =>
  subscriptionStatusLabels[status as SubscriptionStatus] ?? 'N/A';

/** Payment Type options of the form (docs/product.md §5.10): the select's value is the string of isRecurring. */
export const paymentTypeOptions = [
  { value: 'true', label: 'Recurring' },
  { value: 'false', label: 'One Time' },
] as const;

const maxAmount = 999_999.99;
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

const amountField = z.preprocess(
  (v) => {
    const value = blankToUndefined(typeof v === 'string' ? v.trim() : v);
    return typeof value === 'string' ? Number(value) : value;
  },
  z
    .number({
      error: (i) =>
        i.input === undefined ? subscriptionMessages.amountRequired : subscriptionMessages.amountNumber,
    })
    .gt(0, subscriptionMessages.amountPositive)
    .max(maxAmount, subscriptionMessages.amountTooLarge)
    // Whole cents, and at least one: 0.000000001 is within the rounding tolerance but is 0 cents.
    .refine(
      (n) => Math.round(n * 100) >= 1 && Math.abs(Math.round(n * 100) - n * 100) < 1e-6,
      subscriptionMessages.amountCents,
    ),
);

const isRecurringField = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : blankToUndefined(v)),
  z.boolean({
    error: (i) =>
      i.input === undefined
        ? subscriptionMessages.paymentTypeRequired
        : subscriptionMessages.paymentTypeInvalid,
  }),
);

/**
 * The Add Subscription body, and the form's schema: the form's select gives 'true' / 'false' and
 * its amount input a string, so both are read here. planType is required only when recurring and is
 * dropped from the output otherwise (docs/product.md §5.10).
 */
export const createSubscriptionSchema = strictObject({
  fullName: requiredText(subscriptionMessages.fullNameRequired, 120),
  email: z
    .string({ error: (i) => (i.input == null ? subscriptionMessages.emailRequired : 'Email must be text') })
    .trim()
    .min(1, subscriptionMessages.emailRequired)
    .max(254, 'Email must be at most 254 characters')
    .pipe(z.email(subscriptionMessages.emailInvalid)),
  machineSerialNumber: requiredText(subscriptionMessages.machineSerialNumberRequired, 100),
  amount: amountField,
  isRecurring: isRecurringField,
  // Checked against planTypes below, and only when recurring; bounded like every text field.
  planType: z.preprocess(
    blankToUndefined,
    z
      .string({ error: subscriptionMessages.planTypeInvalid })
      .max(16, subscriptionMessages.planTypeInvalid)
      .optional(),
  ),
  /** Ours (issue 39): the customer it is for; left out, the machine's holder (if any). */
  customerId: z.preprocess(
    blankToUndefined,
    z.uuid({ error: 'customerId must be a customer id' }).optional(),
  ),
})
  .superRefine(
    (value, ctx) => {
      if (value.isRecurring !== true) return;
      if (value.planType === undefined)
        ctx.addIssue({ code: 'custom', path: ['planType'], message: subscriptionMessages.planTypeRequired });
      else if (!planTypes.includes(value.planType as PlanType))
        ctx.addIssue({ code: 'custom', path: ['planType'], message: subscriptionMessages.planTypeInvalid });
    },
    // Runs even when another field is wrong, so the form shows every message at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .transform(({ planType, ...rest }) =>
    rest.isRecurring ? { ...rest, planType: planType as PlanType } : rest,
  );
export type CreateSubscriptionInput = z.input<typeof createSubscriptionSchema>;
export type CreateSubscriptionBody = z.output<typeof createSubscriptionSchema>;

const statusSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/** docs/product.md §3.4 "Subscription", plus the customer's link. */
export const subscriptionSchema = z.object({
  _id: z.string(),
  fullName: z.string(),
  email: z.string(),
  machineSerialNumber: z.string(),
  /** The machine the serial named (decision 068), linked from the list; null if made before that. */
  deviceId: z.string().nullable(),
  amount: z.number(),
  isRecurring: z.boolean(),
  planType: z.enum(planTypes).nullable(),
  status: statusSchema,
  createdAt: z.string(),
  /** The link's expiry; once a recurring plan is paid, the end of the paid period. */
  expiredAt: z.string(),
  paidAt: z.string().nullable(),
  link: z.string(),
  /** Ours: the payment (or the open attempt) is with the built-in demo provider: no money moved. */
  demoPayment: z.boolean(),
  /** Ours (issue 39): the customer it is for, and its name; null: none (made before customers). */
  customerId: z.string().nullable().optional(),
  customerName: z.string().nullable().optional(),
});
/** The console's label for a demo payment, beside its status. */
export const demoPaymentLabel = 'Demo payment';
export type Subscription = z.infer<typeof subscriptionSchema>;

/** Ours (the dashboard's figures link here): the status as the list shows it, and expiry within N days. */
export const subscriptionListQuery = pageQuery.extend({
  status: z.coerce
    .number({ error: 'status must be 1, 2, 3 or 4' })
    .pipe(z.union(statusSchema.options, { error: 'status must be 1, 2, 3 or 4' }))
    .optional(),
  expiresWithin: z.coerce
    .number({ error: 'expiresWithin must be a number of days' })
    .int('expiresWithin must be a whole number of days')
    .min(1, 'expiresWithin must be at least 1')
    .max(366, 'expiresWithin must be at most 366')
    .optional(),
  /** The customer's name or email, or the machine's serial number, containing the text (issue 35 item 7). */
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});
export type SubscriptionListQuery = z.infer<typeof subscriptionListQuery>;
/** The export's columns, keyed as the list's; the status in words with 'Demo payment' beside it. */
export const subscriptionExportColumns = {
  fullName: 'Name',
  email: 'Email',
  machineSerialNumber: 'Machine Serial No.',
  amount: 'Amount ($)',
  createdAt: 'Link Sent Time',
  expiredAt: 'Link Expiry Time',
  status: 'Status',
} as const;
/** Ours (issue 17): the list's filters and the columns shown for its CSV export. */
export const subscriptionExportQuery = strictObject({
  status: subscriptionListQuery.shape.status,
  expiresWithin: subscriptionListQuery.shape.expiresWithin,
  search: subscriptionListQuery.shape.search,
  columns: exportColumnsQuery(subscriptionExportColumns),
});
export type SubscriptionExportQuery = z.output<typeof subscriptionExportQuery>;
export const subscriptionListResponseSchema = envelope(
  z.object({
    subscriptions: z.array(subscriptionSchema),
    total_pages: z.number().int(),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  }),
);
export const subscriptionResponseSchema = envelope(subscriptionSchema);

/** What the public checkout page may see by id (docs/product.md §2.13), and its status. */
export const checkoutSummarySchema = z.object({
  _id: z.string(),
  fullName: z.string(),
  isRecurring: z.boolean(),
  planType: z.enum(planTypes).nullable(),
  email: z.string(),
  machineSerialNumber: z.string(),
  amount: z.number(),
  createdAt: z.string(),
  status: statusSchema,
});
export type CheckoutSummary = z.infer<typeof checkoutSummarySchema>;
export const checkoutSummaryResponseSchema = envelope(checkoutSummarySchema);

export const subscriptionIdParam = z.object({ id: z.string().max(64) });

/** A link's id in a body: the checkout's and the demo card payment's. */
export const subscriptionIdField = z
  .string({ error: (i) => (i.input == null ? 'subcriptionId is required' : 'subcriptionId must be text') })
  .min(1, 'subcriptionId is required')
  .max(64, 'subcriptionId is too long');

/** docs/product.md §7.2: body {subcriptionId} (spelled as given). */
export const checkoutBodySchema = strictObject({ subcriptionId: subscriptionIdField });
export const checkoutResponseSchema = envelope(
  z.object({ clientSecret: z.string(), provider: z.enum(paymentProviders) }),
);

/**
 * Asks the provider for the payment's state (the /success page and a periodic sweep call it): the
 * reconcile route's own names for the checkout schemas it shares.
 * @alias
 */
export const reconcileBodySchema = checkoutBodySchema;
/** @alias */
export const reconcileResponseSchema = checkoutSummaryResponseSchema;

/** docs/product.md §2.12 "Subscription Management". */
export const subscriptionTexts = {
  addSubscription: 'Add Subscription',
  empty: 'No Subscription found.',
  copyLink: 'Copy link',
  linkCopied: 'Payment link copied',
} as const;

/**
 * docs/product.md §2.13: defined, not displayed. Euro per month.
 * @public
 */
export const marketingPlans = [
  {
    name: 'Basic',
    pricePerMonthEur: 3490,
    features: ['One treatment device', 'Treatment records and logs', 'Email support'],
  },
  {
    name: 'Pro',
    pricePerMonthEur: 4990,
    features: [
      'Up to three treatment devices',
      'Doctor, patient and technician accounts',
      'Priority support',
    ],
  },
  {
    name: 'Prepaid',
    pricePerMonthEur: 7490,
    features: ['Paid a year ahead', 'Unlimited treatment devices', 'Dedicated account manager'],
  },
] as const;
