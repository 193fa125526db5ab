import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every message the server sends. Without SMTP the row is the delivery ('logged'); with SMTP a row
 * is stored 'pending' before the first try and stays 'pending'/'failed' until a try gets it
 * through, then turns 'sent'.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /**
     * The body holds a secret (a one-time code, a payment link): once sent, text and html are
     * replaced with '[cleared after sending]' (docs/decisions/031). Unsent, it stays for the retries.
     */
    holdsSecret: boolean('holds_secret').notNull().default(false),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'logged'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    // The retry loop's scan: failed messages and pending ones whose first delivery never finished.
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'failed')`),
    index('mail_outbox_created_at_idx').on(t.createdAt),
  ],
);
