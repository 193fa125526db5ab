import { signatureInputSchema, signatureSchema } from './signatures.ts';
import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';
import { licenceStates } from './licences.ts';
import { paymentProviders } from './checkout.ts';
import { subscriptionEventKinds } from './subscription-history.ts';
import { subscriptionIdField, subscriptionSchema } from './subscriptions.ts';
import { demoCardFormSchema } from './demo-card.ts';

/*
 * The operations admins run on one subscription (issue 34 item 5), from the list's row menu and the
 * subscription page (/admin/view-subscription/{id}): its detail with payments and timeline, resend
 * the link, revoke an unpaid link, extend the paid-through date, grant grace (pausing collection),
 * resume collection, cancel a recurring plan, retry a failed payment, send a card-update link, and
 * each payment's receipt. Each writes a timeline event and derives the machine's licence again.
 *
 * Permissions: reading needs subscriptions.view; the link and plan operations subscriptions.manage;
 * extending and granting grace give time without payment, so they need licences.manage, and
 * extending a fresh step-up too.
 */

export const subscriptionOperationPaths = {
  /** GET: the subscription page's data. */
  detail: (id: string) => `/api/v1/admin/subscriptions/${id}`,
  /** POST, no body: mail the payment link again (an unpaid link, not revoked). */
  resend: (id: string) => `/api/v1/admin/subscriptions/${id}/resend`,
  /** POST {reason?}: an unpaid link can no longer be paid. */
  revoke: (id: string) => `/api/v1/admin/subscriptions/${id}/revoke`,
  /** POST {paidThrough, reason}: step-up; licences.manage. */
  extend: (id: string) => `/api/v1/admin/subscriptions/${id}/extend`,
  /** POST {until, reason}: licences.manage; a recurring plan's collection pauses until then. */
  grace: (id: string) => `/api/v1/admin/subscriptions/${id}/grace`,
  /** POST, no body: collect a paused recurring plan's payments again. */
  resume: (id: string) => `/api/v1/admin/subscriptions/${id}/resume`,
  /** POST {when, reason?}: a recurring plan ends at its period's end, or now. */
  cancel: (id: string) => `/api/v1/admin/subscriptions/${id}/cancel`,
  /** POST, no body: pay a recurring plan's failed renewal now with the card on file. */
  retry: (id: string) => `/api/v1/admin/subscriptions/${id}/retry`,
  /** POST, no body: mail the customer a link to change the plan's card. */
  cardUpdate: (id: string) => `/api/v1/admin/subscriptions/${id}/card-update`,
  /** GET: `{ url }` of one payment's receipt (Stripe's hosted page, or the demo's own). */
  receipt: (id: string, paymentId: string) =>
    `/api/v1/admin/subscriptions/${id}/payments/${paymentId}/receipt`,
  /** Public, HTML: the demo provider's receipt, at the payment's unguessable id. */
  demoReceipt: (paymentId: string) => `/api/v1/receipts/${paymentId}`,
  /** Public, POST: the demo provider's card-update form (the customer's new card on file). */
  demoCardUpdate: '/api/v1/admin/subscription/demo-card',
} as const;

/** The customer's checkout page (web) for a subscription: the link every payment mail carries. */
export const checkoutPagePath = (id: string) => `/plans/${id}`;
/** The public page (web) where a demo plan's customer gives a new card; the mailed link names it. */
export const cardUpdatePagePath = (id: string) => `${checkoutPagePath(id)}/card`;

export const subscriptionOperationMessages = {
  notFound: 'Subscription not found',
  reasonRequired: 'Reason is required',
  reasonTooLong: 'Reason must be at most 500 characters',
  paidThroughRequired: 'Paid-through date is required',
  paidThroughInvalid: 'Paid-through date must be a date (YYYY-MM-DD)',
  paidThroughNotLater: 'Paid-through date must be after the current paid-through date',
  paidThroughTooFar: 'Paid-through date must be within 2 years',
  untilRequired: 'Grace end date is required',
  untilInvalid: 'Grace end date must be a date (YYYY-MM-DD)',
  untilPast: 'Grace end date must be after today',
  untilTooFar: 'Grace end date must be within 1 year',
  whenInvalid: "when must be 'period-end' or 'now'",
  // Refusals (409): the operation does not fit the subscription's state.
  alreadyPaid: 'This link is paid: it can no longer be resent or revoked',
  revoked: 'This link was revoked',
  linkEnded: 'This link has expired; create a new subscription instead',
  notPaidYet: 'This subscription has no paid-through date to extend; exempt the machine instead',
  notRecurring: 'Only a recurring plan can do this',
  planEnded: 'This plan has ended',
  alreadyCancelled: 'This plan is already set to end',
  notPaused: "This plan's collection is not paused",
  nothingToRetry: 'This plan has no failed payment to retry',
  paymentNotFound: 'Payment not found',
  noReceipt: 'The payment provider has no receipt for this payment yet',
  // Successes.
  resent: 'Payment link sent again',
  revokedDone: 'Link revoked: it can no longer be paid',
  extended: 'Paid-through date extended',
  graceGranted: 'Grace granted',
  resumed: 'Collection resumed',
  cancelledAtPeriodEnd: 'The plan ends at the end of its paid period',
  cancelledNow: 'The plan has ended',
  retried: 'Payment retried: paid',
  retryFailed: (message: string) => `Payment retried: ${message}`,
  cardUpdateSent: 'Card update link sent to the customer',
  cardUpdated: 'Your card has been updated',
} as const;

const m = subscriptionOperationMessages;

const reasonField = z
  .string({ error: m.reasonRequired })
  .trim()
  .min(1, m.reasonRequired)
  .max(500, m.reasonTooLong);

const dateField = (required: string, invalid: string) =>
  z
    .string({ error: (i) => (i.input == null ? required : invalid) })
    .min(1, required)
    .max(10, invalid)
    .pipe(z.iso.date({ error: invalid }));

/** The new paid-through date: the end of that day (UTC), after the current one. */
export const extendBodySchema = strictObject({
  paidThrough: dateField(m.paidThroughRequired, m.paidThroughInvalid),
  reason: reasonField,
  /** The admin's electronic signature (issue 38 item 2, decision 083). */
  signature: signatureInputSchema,
});
export type ExtendBody = z.output<typeof extendBodySchema>;

/** Grace until the end of that day (UTC); a recurring plan's collection pauses until then. */
export const graceBodySchema = strictObject({
  until: dateField(m.untilRequired, m.untilInvalid),
  reason: reasonField,
});
export type GraceBody = z.output<typeof graceBodySchema>;

export const cancelWhens = ['period-end', 'now'] as const;
export type CancelWhen = (typeof cancelWhens)[number];
export const cancelWhenLabels: Record<CancelWhen, string> = {
  'period-end': 'At the end of the paid period',
  now: 'Now',
};

export const cancelBodySchema = strictObject({
  when: z.enum(cancelWhens, { error: m.whenInvalid }),
  reason: reasonField.optional(),
});
export type CancelBody = z.output<typeof cancelBodySchema>;

export const revokeBodySchema = strictObject({ reason: reasonField.optional() });

/** The demo's card-update form: the link's id and a card (its last four digits are all that is kept). */
export const demoCardUpdateBodySchema = strictObject({
  subcriptionId: subscriptionIdField,
  ...demoCardFormSchema.shape,
});

export const subscriptionPaymentSchema = z.object({
  /** The payment's id (also the demo receipt page's key). */
  _id: z.string(),
  paidAt: z.string(),
  amount: z.number(),
  periodEnd: z.string().nullable(),
  provider: z.enum(paymentProviders),
  /** The receipt's address when known now (else the receipt route looks it up). */
  receiptUrl: z.string().nullable(),
});
export type SubscriptionPayment = z.infer<typeof subscriptionPaymentSchema>;

export const subscriptionEventSchema = z.object({
  _id: z.string(),
  at: z.string(),
  kind: z.enum(subscriptionEventKinds),
  /** The admin's email when an admin did it. */
  actor: z.string().nullable(),
  /** SubscriptionEventDetail: reason, amount, paidThrough, until, when, message, to, cardLast4... */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** A signed event's signature (an extension, decision 083); absent on the others. */
  signature: signatureSchema.optional(),
});
export type SubscriptionEvent = z.infer<typeof subscriptionEventSchema>;

/** Which operations the subscription's state allows now (the console offers only these). */
export const subscriptionOperationNames = [
  'resend',
  'revoke',
  'extend',
  'grace',
  'resume',
  'cancel',
  'retry',
  'cardUpdate',
] as const;
export type SubscriptionOperationName = (typeof subscriptionOperationNames)[number];

export const subscriptionDetailSchema = z.object({
  subscription: subscriptionSchema,
  machine: z
    .object({
      _id: z.string(),
      machineNumber: z.string(),
      serialNumber: z.string(),
      licenceState: z.enum(licenceStates),
    })
    .nullable(),
  plan: z.object({
    provider: z.enum(paymentProviders).nullable(),
    paidThrough: z.string().nullable(),
    graceUntil: z.string().nullable(),
    collectionPaused: z.boolean(),
    cancelAtPeriodEnd: z.boolean(),
    cancelledAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    renewalFailedAt: z.string().nullable(),
    lastPaymentError: z.string().nullable(),
    /** The card on file's last four digits, when known (the demo provider's). */
    cardLast4: z.string().nullable(),
  }),
  operations: z.record(z.enum(subscriptionOperationNames), z.boolean()),
  payments: z.array(subscriptionPaymentSchema),
  /** Newest first. */
  timeline: z.array(subscriptionEventSchema),
});
export type SubscriptionDetail = z.infer<typeof subscriptionDetailSchema>;
export const subscriptionDetailResponseSchema = envelope(subscriptionDetailSchema);

export const paymentIdParam = z.object({ id: z.string().max(64), paymentId: z.string().max(64) });
export const receiptResponseSchema = envelope(z.object({ url: z.string() }));
export const demoCardUpdateResponseSchema = envelope(z.object({ cardLast4: z.string() }));
