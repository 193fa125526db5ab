import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { devices } from './devices.ts';
import { users } from './users.ts';

/*
 * Field safety notices (issue 38 item 6, decision 084). A notice is a draft until it is sent; sending
 * freezes the affected machines (safety_notice_machines, with the serial, number and app version each
 * had then) and the clinic contacts they were mailed to (safety_notice_contacts). The rows keep
 * names and numbers as text, so the record outlives the machines and accounts it names.
 */
export const safetyNotices = pgTable(
  'safety_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    kind: text('kind').notNull(),
    remedyText: text('remedy_text').notNull(),
    /** { serialRanges, appVersionCodes, groupId } as the contract's noticeSelectionSchema. */
    selection: jsonb('selection').notNull(),
    remedyKind: text('remedy_kind'),
    remedyId: uuid('remedy_id'),
    /** The remedy's release version code, kept at sending (a release may be deleted later). */
    remedyVersionCode: integer('remedy_version_code'),
    state: text('state').notNull().default('draft'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: text('created_by').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
    sentById: uuid('sent_by_id').references(() => users.id, { onDelete: 'set null' }),
    sentBy: text('sent_by'),
  },
  (t) => [
    uniqueIndex('safety_notices_reference_idx').on(sql`lower(${t.reference})`),
    index('safety_notices_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('safety_notices_state_known', sql`${t.state} in ('draft', 'sent')`),
    check('safety_notices_sent_whole', sql`(${t.state} = 'sent') = (${t.sentAt} is not null)`),
    check('safety_notices_remedy_whole', sql`(${t.remedyKind} is null) = (${t.remedyId} is null)`),
  ],
);

/**
 * One clinic contact of a sent notice: the address mailed, the hash of its acknowledgement token
 * (the token itself is only in the mail), and the acknowledgement, written once.
 */
export const safetyNoticeContacts = pgTable(
  'safety_notice_contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    noticeId: uuid('notice_id')
      .notNull()
      .references(() => safetyNotices.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true, precision: 3 }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, precision: 3 }),
    acknowledgedBy: text('acknowledged_by'),
  },
  (t) => [
    uniqueIndex('safety_notice_contacts_token_idx').on(t.tokenHash),
    uniqueIndex('safety_notice_contacts_email_idx').on(t.noticeId, sql`lower(${t.email})`),
    check(
      'safety_notice_contacts_ack_whole',
      sql`(${t.acknowledgedAt} is null) = (${t.acknowledgedBy} is null)`,
    ),
  ],
);

/** One machine of a sent notice, as it was when the notice was sent. */
export const safetyNoticeMachines = pgTable(
  'safety_notice_machines',
  {
    noticeId: uuid('notice_id')
      .notNull()
      .references(() => safetyNotices.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    machineNumber: text('machine_number').notNull(),
    serialNumber: text('serial_number').notNull(),
    appVersionCode: integer('app_version_code'),
    appVersionName: text('app_version_name'),
    /** Null: the machine had no clinic contact (no subscription with an email) when it was sent. */
    contactId: uuid('contact_id').references(() => safetyNoticeContacts.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('safety_notice_machines_notice_idx').on(t.noticeId, t.serialNumber),
    index('safety_notice_machines_contact_idx').on(t.contactId),
  ],
);
