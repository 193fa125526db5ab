import { bigint, date, pgTable } from 'drizzle-orm/pg-core';

/**
 * Treatment records per UTC day, kept by statement triggers on treatment_records (migration 0026),
 * so the dashboard's "today" and "last 30 days" read 30 rows instead of counting a table that
 * grows with every treatment (decision 050).
 */
export const treatmentDailyCounts = pgTable('treatment_daily_counts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});
