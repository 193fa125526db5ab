import {
  bigint,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Mobile app releases. The APK itself lives in file storage under `storageKey`. */
export const appUpdates = pgTable(
  'app_updates',
  {
    // Random (v4) and so unguessable: it doubles as the public download address.
    id: uuid('id').primaryKey().defaultRandom(),
    appName: text('app_name').notNull(),
    /**
     * The package the APK's manifest declares; every release of an app must keep the first one's.
     * Null on releases stored before manifests were read.
     */
    packageName: text('package_name'),
    versionCode: integer('version_code').notNull(),
    versionName: text('version_name').notNull(),
    remark: text('remark').notNull(),
    updateDesc: text('update_desc').notNull(),
    updateType: smallint('update_type').notNull(),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    apkSize: bigint('apk_size', { mode: 'number' }).notNull(),
    apkSha256: text('apk_sha256').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('app_updates_app_version_idx').on(t.appName, t.versionCode),
    index('app_updates_created_at_idx').on(t.createdAt, t.id),
  ],
);
