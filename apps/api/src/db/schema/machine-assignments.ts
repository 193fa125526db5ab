import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from './customers.ts';
import { devices } from './devices.ts';
import { users } from './users.ts';

/**
 * Which customer held a machine, when (issue 39 item 2, decision 087): one row per period, from
 * `from_at` until `until_at` (null: it holds it now). A device has at most one open period, and its
 * periods never overlap: the write path (modules/customers) locks the device row and closes the
 * open period at the new one's start. The stamping trigger (migration 0055) reads the period that
 * covers a record's own time through the (device_id, from_at) index.
 */
export const machineAssignments = pgTable(
  'machine_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    untilAt: timestamp('until_at', { withTimezone: true }),
    reason: text('reason').notNull().default(''),
    /** Why the period ended (a move to another customer, a return), when it has. */
    endReason: text('end_reason'),
    assignedBy: uuid('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('machine_assignments_open_idx')
      .on(t.deviceId)
      .where(sql`${t.untilAt} is null`),
    index('machine_assignments_device_from_idx').on(t.deviceId, t.fromAt),
    index('machine_assignments_customer_from_idx').on(t.customerId, t.fromAt),
    check('machine_assignments_until_after_from', sql`${t.untilAt} is null or ${t.untilAt} > ${t.fromAt}`),
  ],
);
