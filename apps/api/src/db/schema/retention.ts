import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/*
 * Retention (issue 38 item 3, decision 086). A legal hold keeps everything of its subject past its
 * retention period: a patient (their record, treatments and history) or a machine, which stands for
 * its clinic until customers exist (all its patients, treatments and log rows). The subject's kind is
 * the seam for customers: a new kind, and the retention rules that follow it. A hold is lifted, never
 * removed: who placed and lifted it, when and why stay. Names and emails are kept as they were, so
 * the record outlives the accounts.
 */
export const legalHolds = pgTable(
  'legal_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectKind: text('subject_kind', { enum: ['patient', 'device'] }).notNull(),
    /** The patient's or machine's id; no foreign key, so the hold outlives a record removed by hand. */
    subjectId: uuid('subject_id').notNull(),
    /** What the console shows for the subject: a machine's number, "Patient on <machine>". */
    subjectLabel: text('subject_label').notNull(),
    reason: text('reason').notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true, precision: 3 }).notNull(),
    placedById: uuid('placed_by_id').references(() => users.id, { onDelete: 'set null' }),
    placedByEmail: text('placed_by_email').notNull(),
    liftedAt: timestamp('lifted_at', { withTimezone: true, precision: 3 }),
    liftedById: uuid('lifted_by_id').references(() => users.id, { onDelete: 'set null' }),
    liftedByEmail: text('lifted_by_email'),
    liftReason: text('lift_reason'),
  },
  (t) => [
    // One hold in force per subject; the retention run reads the ones in force.
    uniqueIndex('legal_holds_active_subject_idx')
      .on(t.subjectKind, t.subjectId)
      .where(sql`${t.liftedAt} is null`),
    index('legal_holds_placed_idx').on(t.placedAt.desc(), t.id.desc()),
    check('legal_holds_reason_length', sql`char_length(${t.reason}) between 1 and 500`),
    check(
      'legal_holds_lift_whole',
      sql`(${t.liftedAt} is null) = (${t.liftedByEmail} is null) and (${t.liftedAt} is null) = (${t.liftReason} is null)`,
    ),
  ],
);

/** One retention run: when, on which instance's clock, and what it removed per record type. */
export const retentionRuns = pgTable(
  'retention_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }).notNull(),
    /** { recordType: rows removed or anonymised }, every type of the schedule. */
    removed: jsonb('removed').$type<Record<string, number>>().notNull(),
  },
  (t) => [index('retention_runs_started_idx').on(t.startedAt.desc(), t.id.desc())],
);
