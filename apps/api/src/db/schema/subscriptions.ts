import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
  },
  (t) => [
    index('subscriptions_machine_serial_number_idx').on(t.machineSerialNumber, t.createdAt),
    index('subscriptions_status_expired_at_idx').on(t.status, t.expiredAt),
    index('subscriptions_created_at_idx').on(t.createdAt),
    index('subscriptions_provider_ref_idx')
      .on(t.providerRef)
      .where(sql`${t.providerRef} is not null`),
  ],
);

/** Provider events already applied: a replayed webhook changes nothing. */
export const processedPaymentEvents = pgTable('processed_payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});
