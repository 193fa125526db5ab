import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from './customers.ts';
import { devices } from './devices.ts';
import { users } from './users.ts';

/**
 * A payment link for one machine. The id is the customer's only key to the public checkout, so it
 * is 144 random bits (crypto), not a UUID. Amounts are kept in cents.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    machineSerialNumber: text('machine_serial_number').notNull(),
    amountCents: integer('amount_cents').notNull(),
    isRecurring: boolean('is_recurring').notNull(),
    planType: text('plan_type', { enum: ['month', 'year'] }),
    /** 1 Pending, 2 Complete, 3 Expired, 4 Failed. Expiry of an unpaid link is also computed on read. */
    status: smallint('status').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The link's expiry; for a paid recurring plan, the end of the paid period. */
    expiredAt: timestamp('expired_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Which provider holds the current payment attempt, and its reference there. */
    provider: text('provider', { enum: ['demo', 'stripe'] }),
    /** Stripe: the PaymentIntent id (one-time) or the Subscription id (recurring); demo: the intent ref. */
    providerRef: text('provider_ref'),
    /** Stripe PaymentIntent id of the first invoice of a recurring plan, for reconciliation. */
    providerIntentId: text('provider_intent_id'),
    /** Counts payment intents made, so each new attempt has its own idempotency key. */
    paymentAttempts: integer('payment_attempts').notNull().default(0),
    lastPaymentError: text('last_payment_error'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The machine the serial number named when the subscription was made (decision 068). */
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'restrict' }),
    /** Until when the payments made license the machine (recurring: the period's end). */
    paidThrough: timestamp('paid_through', { withTimezone: true }),
    /** Grace an admin granted (or collection paused) until this moment. */
    graceUntil: timestamp('grace_until', { withTimezone: true }),
    /** A renewal's payment failed and none has succeeded since. */
    renewalFailedAt: timestamp('renewal_failed_at', { withTimezone: true }),
    /** Collection paused (Stripe's pause of payment collection) until graceUntil. */
    collectionPausedAt: timestamp('collection_paused_at', { withTimezone: true }),
    /** A recurring plan that ends at its period's end instead of renewing. */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** An unpaid link an admin revoked: it can no longer be paid. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The customer the subscription is for (issue 39 item 1); null: made before customers, or none named. */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
  },
  (t) => [
    index('subscriptions_machine_serial_number_idx').on(t.machineSerialNumber, t.createdAt),
    index('subscriptions_status_expired_at_idx').on(t.status, t.expiredAt),
    index('subscriptions_created_at_idx').on(t.createdAt),
    index('subscriptions_device_id_idx').on(t.deviceId, t.createdAt),
    index('subscriptions_customer_id_idx').on(t.customerId, t.createdAt),
    index('subscriptions_provider_ref_idx')
      .on(t.providerRef)
      .where(sql`${t.providerRef} is not null`),
  ],
);

/**
 * Provider events already applied: a replayed webhook changes nothing. Kept for
 * PAYMENT_EVENT_RETENTION_DAYS, well past the provider's retries (housekeeping, decision 072).
 */
export const processedPaymentEvents = pgTable(
  'processed_payment_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('processed_payment_events_processed_at_idx').on(t.processedAt)],
);

/**
 * Everything that happened to a subscription, for its timeline: created, mailed, opened, paid,
 * renewed, failed, extended, grace, paused, resumed, cancelled, revoked, resent, retried, reminded...
 * `detail` carries what the kind needs (a reason, an amount, the new paid-through date).
 */
export const subscriptionEvents = pgTable(
  'subscription_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The admin's email at the time (kept when the user is deleted). */
    actorEmail: text('actor_email'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('subscription_events_subscription_at_idx').on(t.subscriptionId, t.at)],
);

/** Each payment taken for a subscription, with its receipt (Stripe's hosted one, or the demo's page). */
export const subscriptionPayments = pgTable(
  'subscription_payments',
  {
    /** 144 random bits: the demo receipt page's only key. */
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['demo', 'stripe'] }).notNull(),
    /** The provider's id of the payment (PaymentIntent or invoice): one row per payment. */
    providerRef: text('provider_ref').notNull(),
    amountCents: integer('amount_cents').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    receiptUrl: text('receipt_url'),
  },
  (t) => [
    uniqueIndex('subscription_payments_provider_ref_idx').on(t.provider, t.providerRef),
    index('subscription_payments_subscription_idx').on(t.subscriptionId, t.paidAt),
  ],
);
