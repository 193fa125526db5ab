import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ColorMode } from '@app/contract/preferences';
import { users } from './users.ts';

/**
 * An admin's preferences for one list (decision 053): the columns shown in their order, the page
 * size and the sort. Gone with the admin.
 */
export const adminListPreferences = pgTable(
  'admin_list_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    columns: jsonb('columns').$type<string[] | null>(),
    pageSize: integer('page_size'),
    sort: jsonb('sort').$type<{ key: string; direction: 'asc' | 'desc' } | null>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.list] })],
);

/** An admin's console-wide settings (decision 054): for now the colour mode. Gone with the admin. */
export const adminSettings = pgTable('admin_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  colorMode: text('color_mode').$type<ColorMode>().notNull().default('system'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A named view of a list (its URL query), private to its admin or shared with every admin. */
export const savedViews = pgTable(
  'saved_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    name: text('name').notNull(),
    query: text('query').notNull(),
    shared: boolean('shared').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_views_owner_list_name_idx').on(t.ownerId, t.list, sql`lower(${t.name})`),
    index('saved_views_list_shared_idx').on(t.list, t.shared),
  ],
);
