import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { patients } from './devices.ts';
import { users } from './users.ts';

/*
 * Break-glass access (decision 082): one row per emergency declared, kept for review. Who broke the
 * glass and who signed it off are kept by name and email as they were then, so the record outlives
 * the accounts (their ids go null when a user is deleted) and the patient's row (the machine's
 * number stays). A sign-off is written once: the UPDATE that writes it requires signed_off_at null.
 */
export const breakGlassAccesses = pgTable(
  'break_glass_accesses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    machineNumber: text('machine_number'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    userName: text('user_name').notNull(),
    reason: text('reason').notNull(),
    declaredAt: timestamp('declared_at', { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    signedOffAt: timestamp('signed_off_at', { withTimezone: true, precision: 3 }),
    signedOffById: uuid('signed_off_by_id').references(() => users.id, { onDelete: 'set null' }),
    signedOffByEmail: text('signed_off_by_email'),
    signedOffByName: text('signed_off_by_name'),
    signOffNote: text('sign_off_note'),
  },
  (t) => [
    // An admin's access to a patient that still lasts: read on every use.
    index('break_glass_user_patient_idx').on(t.userId, t.patientId, t.expiresAt.desc()),
    // The review list's two tabs, newest first, and the bell's count of the first.
    index('break_glass_open_idx')
      .on(t.declaredAt.desc(), t.id.desc())
      .where(sql`${t.signedOffAt} is null`),
    index('break_glass_signed_off_idx')
      .on(t.signedOffAt.desc(), t.id.desc())
      .where(sql`${t.signedOffAt} is not null`),
    check('break_glass_window', sql`${t.expiresAt} > ${t.declaredAt}`),
    check('break_glass_reason_length', sql`char_length(${t.reason}) between 1 and 500`),
    check(
      'break_glass_sign_off_whole',
      sql`(${t.signedOffAt} is null) = (${t.signedOffByEmail} is null)
        and (${t.signedOffAt} is null) = (${t.signOffNote} is null)`,
    ),
  ],
);
