import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/*
 * The change history of the regulated records (decision 081, migration 0049): one row per field a
 * write changed, with the old and the new value, written by row triggers on the records' tables in
 * the same transaction as the change, so no change is stored without its history. Who changed it
 * comes from a transaction-local setting (lib/record-history.ts); without one, the system did.
 * Append-only, as the audit trail is (decision 013). No foreign keys: history outlives the record,
 * the user and the session it names.
 */
export const recordHistory = pgTable(
  'record_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The transaction's time: every field of one change has the same. */
    changedAt: timestamp('changed_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The record's kind as the audit trail names it (RecordKind) and its id as text. */
    recordKind: text('record_kind').notNull(),
    recordId: text('record_id').notNull(),
    /** The field as the API names it ('machineNumber', 'settings.heartbeatIntervalSeconds'). */
    field: text('field').notNull(),
    /** JSON values; null: the field had none (a record created or removed). */
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    /** A secret (a password hash) changed: its values are never stored, only that it changed. */
    secret: boolean('secret').notNull().default(false),
    /** The admin who made the change, their session and request; all null for the system. */
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    sessionId: uuid('session_id'),
    requestId: text('request_id'),
    /** Why, when the change asked for a reason. */
    reason: text('reason'),
  },
  (t) => [index('record_history_record_idx').on(t.recordKind, t.recordId, t.changedAt.desc(), t.id.desc())],
);
