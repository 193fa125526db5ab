import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from './customers.ts';
import { users } from './users.ts';

/**
 * Invitations of clinic users (issue 39 item 3, decision 088): the mailed link's token is kept only
 * as its SHA-256; the link works once (used_at), until expires_at, and not after a newer invitation
 * to the same person for the same clinic replaced it (revoked_at).
 */
export const clinicInvitations = pgTable(
  'clinic_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    role: text('role', { enum: ['manager', 'staff'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Who sent it: a supplier's admin or the clinic's manager (null once that user is deleted). */
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('clinic_invitations_token_hash_idx').on(t.tokenHash),
    index('clinic_invitations_customer_created_idx').on(t.customerId, t.createdAt),
    check('clinic_invitations_role', sql`${t.role} in ('manager', 'staff')`),
  ],
);
