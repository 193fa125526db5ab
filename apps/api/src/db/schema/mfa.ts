import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A user's TOTP authenticator. The secret is AES-256-GCM ciphertext (key derived from the server
 * secret), never stored or logged in clear. `enabledAt` null = enrolment started but not confirmed
 * with a code, so sign-in does not ask for it yet. `lastStep` is the last time step accepted: a code
 * of that step or an earlier one is refused (replay).
 */
export const mfaAuthenticators = pgTable('mfa_authenticators', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes, stored as HMACs; a used one keeps its row with `usedAt` set. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mfa_recovery_codes_user_id_idx').on(t.userId, t.codeHash)],
);

/**
 * Sign-in step tokens already used (docs/decisions/030): a step token opens one session, once. Kept
 * until the token would have expired anyway; older rows are deleted as new ones come.
 */
export const mfaUsedStepTokens = pgTable(
  'mfa_used_step_tokens',
  {
    jti: text('jti').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('mfa_used_step_tokens_expires_idx').on(t.expiresAt)],
);
