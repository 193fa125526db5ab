import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * One forgotten-password attempt: an emailed OTP (stored as an HMAC, never in clear), then, once the
 * OTP is verified, a reset token (stored as a SHA-256). A newer OTP, 5 wrong tries or a completed
 * reset void the row.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    otpHash: text('otp_hash').notNull(),
    otpAttempts: integer('otp_attempts').notNull().default(0),
    otpExpiresAt: timestamp('otp_expires_at', { withTimezone: true }).notNull(),
    otpUsedAt: timestamp('otp_used_at', { withTimezone: true }),
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    tokenUsedAt: timestamp('token_used_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('password_resets_user_id_idx').on(t.userId, t.createdAt),
    uniqueIndex('password_resets_token_hash_idx').on(t.tokenHash),
  ],
);
