import { sql } from 'drizzle-orm';
import {
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SettingValues } from '@app/contract/machine-settings';
import type { MaintenanceWindow } from '@app/contract/maintenance-windows';
import { devices } from './devices.ts';

/*
 * Machine groups (issue 37, decision 077). A static group's machines are its member rows; a dynamic
 * group's are whatever its filter (Device Management's own filters) matches when it is used.
 */
export const machineGroups = pgTable(
  'machine_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    filter: jsonb('filter'),
    /** Copied onto its machines when set (devices.maintenance_window_group_id names the group). */
    maintenanceWindow: jsonb('maintenance_window').$type<MaintenanceWindow>(),
    /** Its settings' values, copied onto its machines when set (devices.settings_from_groups). */
    settings: jsonb('settings').$type<SettingValues>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    uniqueIndex('machine_groups_name_idx').on(sql`lower(${t.name})`),
    check('machine_groups_kind_known', sql`${t.kind} in ('static', 'dynamic')`),
    check('machine_groups_filter_by_kind', sql`(${t.kind} = 'dynamic') = (${t.filter} is not null)`),
  ],
);

export const machineGroupMembers = pgTable(
  'machine_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => machineGroups.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.deviceId] }),
    index('machine_group_members_device_idx').on(t.deviceId),
  ],
);

/** The fleet's default settings of the machines' app (issue 37 item 3): one row per key set. */
export const fleetSettings = pgTable('fleet_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  updatedBy: text('updated_by').notNull(),
});
