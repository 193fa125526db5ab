import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
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
    /**
     * Staged rollout (decision 051): the share of enrolled machines, by their stable cohort, that
     * are offered this release. 100 for releases stored before rollouts (they went to everyone).
     */
    rolloutPercent: smallint('rollout_percent').notNull().default(100),
    /** Offered to a machine only inside its maintenance window and while it is idle (issue 37). */
    respectsWindow: boolean('respects_window').notNull().default(false),
    /** active, paused, halted (nobody new gets it) or withdrawn (its machines go back to the previous one). */
    rolloutState: text('rollout_state').notNull().default('active'),
    /**
     * What waits for a second admin (decision 051): 'release', a new Force or 100 % release offered
     * to nobody yet; 'full-stage', a move to 100 % while the current stage goes on. Null: nothing.
     */
    approvalPending: text('approval_pending'),
    approvalRequestedBy: uuid('approval_requested_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('app_updates_rollout_percent_check', sql`${t.rolloutPercent} between 1 and 100`),
    check(
      'app_updates_rollout_state_check',
      sql`${t.rolloutState} in ('active', 'paused', 'halted', 'withdrawn')`,
    ),
    check('app_updates_approval_pending_check', sql`${t.approvalPending} in ('release', 'full-stage')`),
    uniqueIndex('app_updates_app_version_idx').on(t.appName, t.versionCode),
    index('app_updates_created_at_idx').on(t.createdAt, t.id),
  ],
);
