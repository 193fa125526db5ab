import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { patients } from './devices.ts';
import { users } from './users.ts';

/*
 * Erasure requests (issue 38 item 4, GDPR Art. 17, decision 085): one row per patient's request,
 * decided once. The patient is kept by their numeric id and machine number, never by name or
 * contact: the row is the record that the erasure happened and outlives what it erased. Who
 * recorded and who decided are kept by name and email as they were then. The decision's signature
 * is in `signatures` (record type 'erasure-decision', this id). The decision is written once: the
 * UPDATE that writes it requires state 'open'.
 */
export const erasureRequests = pgTable(
  'erasure_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    patientUserId: integer('patient_user_id'),
    machineNumber: text('machine_number'),
    channel: text('channel').notNull(),
    receivedOn: date('received_on').notNull(),
    note: text('note'),
    requestedAt: timestamp('requested_at', { withTimezone: true, precision: 3 }).notNull(),
    requestedById: uuid('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    requestedByEmail: text('requested_by_email').notNull(),
    requestedByName: text('requested_by_name').notNull(),
    state: text('state', { enum: ['open', 'erased', 'erased-in-part', 'refused'] })
      .notNull()
      .default('open'),
    decidedAt: timestamp('decided_at', { withTimezone: true, precision: 3 }),
    decidedById: uuid('decided_by_id').references(() => users.id, { onDelete: 'set null' }),
    decidedByEmail: text('decided_by_email'),
    decidedByName: text('decided_by_name'),
    partsErased: text('parts_erased')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    partsKept: text('parts_kept')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    legalBasis: text('legal_basis'),
    basisNote: text('basis_note'),
    /** What the decision did, place by place, as counts: never a value it erased. */
    outcome: jsonb('outcome')
      .$type<{ place: string; done: string; count: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [
    // One request awaiting a decision per patient.
    uniqueIndex('erasure_requests_open_patient_idx')
      .on(t.patientId)
      .where(sql`${t.state} = 'open'`),
    index('erasure_requests_state_idx').on(t.state, t.requestedAt.desc(), t.id.desc()),
    check('erasure_requests_note_length', sql`char_length(${t.note}) <= 500`),
    check(
      'erasure_requests_decision_whole',
      sql`(${t.state} = 'open') = (${t.decidedAt} is null) and (${t.decidedAt} is null) = (${t.decidedByEmail} is null)`,
    ),
  ],
);
