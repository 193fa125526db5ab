/*
 * A subscription's timeline (issue 34 item 5): every event, from the customer, the payment provider,
 * the clock and the admins, kept in `subscription_events` and shown on the subscription's page.
 * Kept free of zod: the API's writers and the console's timeline both read it.
 */

/**
 * created, mailed (the link stored in the outbox), opened (the checkout first loaded), paid (the
 * first payment), renewed (every later one), failed (a payment refused), extended, grace, paused,
 * resumed, cancelled, revoked, resent, retried, card-update-sent and card-updated (the customer gave
 * a new card), ended (the provider ended the plan), reminded (a reminder or dunning mail).
 */
export const subscriptionEventKinds = [
  'created',
  'mailed',
  'opened',
  'paid',
  'renewed',
  'failed',
  'extended',
  'grace',
  'paused',
  'resumed',
  'cancelled',
  'revoked',
  'resent',
  'retried',
  'card-update-sent',
  'card-updated',
  'ended',
  'reminded',
] as const;
export type SubscriptionEventKind = (typeof subscriptionEventKinds)[number];

export const subscriptionEventLabels: Record<SubscriptionEventKind, string> = {
  created: 'Created',
  mailed: 'Payment link mailed',
  opened: 'Opened by the customer',
  paid: 'Paid',
  renewed: 'Renewed',
  failed: 'Payment failed',
  extended: 'Paid-through date extended',
  grace: 'Grace granted',
  paused: 'Collection paused',
  resumed: 'Collection resumed',
  cancelled: 'Cancelled',
  revoked: 'Link revoked',
  resent: 'Payment link sent again',
  retried: 'Payment retried',
  'card-update-sent': 'Card update link sent',
  'card-updated': 'Card updated by the customer',
  ended: 'Ended by the payment provider',
  reminded: 'Reminder sent',
};

/**
 * What an event carries beside its kind, flat so the timeline can list it: e.g. `reason`,
 * `amount` (dollars), `paidThrough` / `until` (ISO times), `when` ('period-end' | 'now'), `message`
 * (a refusal's text), `outcome`, `to` (the mail's recipient), `cardLast4`.
 */
export type SubscriptionEventDetail = Record<string, string | number | boolean | null>;
