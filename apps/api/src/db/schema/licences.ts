import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices.ts';
import { users } from './users.ts';

/*
 * Licences (decision 068): the state lives on `devices` (licence_*); these hold what it is derived
 * from beside the subscriptions, its history, the keys that sign it and the mails it caused.
 */

/** An admin's override: the machine is exempt (loaner, trial, service) until `until`. */
export const licenceExemptions = pgTable('licence_exemptions', {
  deviceId: uuid('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['loaner', 'trial', 'service', 'other'] }).notNull(),
  reason: text('reason').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdByEmail: text('created_by_email'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every change of a machine's licence, with its cause: its Licence card's history. */
export const licenceEvents = pgTable(
  'licence_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    fromState: text('from_state'),
    toState: text('to_state').notNull(),
    cause: text('cause', { enum: ['payment', 'webhook', 'expiry', 'admin', 'subscription'] }).notNull(),
    actorEmail: text('actor_email'),
    reason: text('reason'),
    subscriptionId: text('subscription_id'),
    paidThrough: timestamp('paid_through', { withTimezone: true }),
    graceUntil: timestamp('grace_until', { withTimezone: true }),
  },
  (t) => [index('licence_events_device_at_idx').on(t.deviceId, t.at)],
);

/**
 * The keys licences are signed with (Ed25519). The newest unretired one signs; every key whose
 * licences may still be valid is published in the JWKS, so a rotation never breaks a machine. The
 * private key is stored encrypted with a key derived from JWT_SECRET.
 */
export const licenceSigningKeys = pgTable('licence_signing_keys', {
  kid: text('kid').primaryKey(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  privateKeyEncrypted: text('private_key_encrypted').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** No longer signs; still published until every licence it signed has expired. */
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});

/**
 * Reminder and dunning mails, one per machine, kind and period: claimed by insert before sending, so
 * two API instances (or two runs) never send the same one twice.
 */
export const licenceNotices = pgTable(
  'licence_notices',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** e.g. reminder-14, reminder-3, renewal-failed, lapsed. */
    kind: text('kind').notNull(),
    /** The period it is about: the paid-through date it counts down to. */
    periodKey: text('period_key').notNull(),
    subscriptionId: text('subscription_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.kind, t.periodKey] })],
);
