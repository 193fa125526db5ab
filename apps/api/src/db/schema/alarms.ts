import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices.ts';
import { users } from './users.ts';

/*
 * Device health alarms (decision 049). The evaluator opens at most one alarm per machine and rule
 * (the partial unique index is what makes a second check, or a second API instance, harmless) and
 * resolves it when the condition clears; an admin may acknowledge and resolve it. The history is
 * these columns: each step happens at most once. Who acted is kept as their email at the time.
 * Counted by triggers into table_row_counts ('alarms', 'alarms_open': migration 0025).
 */
export const alarms = pgTable(
  'alarms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** One of the contract's alarmRules. */
    rule: text('rule').notNull(),
    /** What the rule saw when it opened the alarm (the contract's AlarmDetail). */
    detail: jsonb('detail').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true, precision: 3 }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, precision: 3 }),
    acknowledgedBy: text('acknowledged_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, precision: 3 }),
    /** Null with a resolved_at: the alarm resolved by itself. */
    resolvedBy: text('resolved_by'),
  },
  (t) => [
    uniqueIndex('alarms_open_device_rule_idx')
      .on(t.deviceId, t.rule)
      .where(sql`${t.resolvedAt} is null`),
    index('alarms_open_opened_idx')
      .on(t.openedAt.desc(), t.id.desc())
      .where(sql`${t.resolvedAt} is null`),
    index('alarms_past_resolved_idx')
      .on(t.resolvedAt.desc(), t.id.desc())
      .where(sql`${t.resolvedAt} is not null`),
    index('alarms_device_opened_idx').on(t.deviceId, t.openedAt.desc()),
    check(
      'alarms_rule_known',
      sql`${t.rule} in ('offline', 'app-version', 'error-burst', 'revoked-calls', 'licence-grace')`,
    ),
  ],
);

/** Admins who asked for the daily digest of open alarms, and when they last got one. */
export const alarmDigestRecipients = pgTable('alarm_digest_recipients', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
});
