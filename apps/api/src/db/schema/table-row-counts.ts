import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Row counts kept by statement triggers as rows are written (see the device_counts migration), so
 * the unfiltered device list knows its 'Page X of Y' without counting the table per request.
 */
export const tableRowCounts = pgTable('table_row_counts', {
  tableName: text('table_name').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});
