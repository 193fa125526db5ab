import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/*
 * Electronic signatures (issue 38 item 2, decision 083): one row per signature, written in the
 * transaction of the signed change. The signer's printed name and email are kept as they were at
 * signing, so the signature outlives the account: no foreign key (a `set null` would be an UPDATE,
 * which the append-only trigger refuses, so deleting the user would fail). The
 * record is named by type and id, not by a foreign key: erasure decisions and field safety notices
 * sign rows of their own tables. Append-only like the audit trail (migration's triggers).
 */
export const signatures = pgTable(
  'signatures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id').notNull(),
    signerId: uuid('signer_id').notNull(),
    signerName: text('signer_name').notNull(),
    signerEmail: text('signer_email').notNull(),
    meaning: text('meaning').notNull(),
    contentHash: text('content_hash').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The session signed from; no foreign key, so the signature outlives housekept sessions. */
    sessionId: uuid('session_id'),
  },
  (t) => [
    // listFor: a record's signatures, oldest first.
    index('signatures_record_idx').on(t.recordType, t.recordId, t.signedAt),
    check('signatures_meaning', sql`${t.meaning} in ('approval', 'review', 'responsibility', 'authorship')`),
    check('signatures_content_hash', sql`${t.contentHash} ~ '^[0-9a-f]{64}$'`),
  ],
);
