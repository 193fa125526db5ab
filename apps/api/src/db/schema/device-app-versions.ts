import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices.ts';

/**
 * Each machine's app version changes, as its heartbeats reported them. Written by a trigger on
 * devices.app_version_code (migration device_app_versions), so every path that changes the
 * version records it, and the batched check-in write stays one statement.
 */
export const deviceAppVersions = pgTable(
  'device_app_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    versionCode: integer('version_code').notNull(),
    versionName: text('version_name'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('device_app_versions_device_id_idx').on(t.deviceId, t.firstSeenAt, t.id)],
);
