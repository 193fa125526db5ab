import { sql } from 'drizzle-orm';
import { bigint, check, customType, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Raw bytes: a SHA-256 digest is 32 of them, half the size of its hex text. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/*
 * The head of each audit log's hash chain (decision 080, migration 0048): one row per log table.
 * The insert trigger reads it once per transaction, under one advisory lock, and writes it once per
 * statement; verification reads it to know where the chain starts and must end.
 */
export const auditChainHeads = pgTable(
  'audit_chain_heads',
  {
    /** 'access' (access_logs) or 'error' (error_logs). */
    log: text('log', { enum: ['access', 'error'] }).primaryKey(),
    /** The newest row's chain_seq (0 before the first row) and chain_hash. */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
    lastHash: bytea('last_hash').notNull(),
    /**
     * Where verification starts: the first row it reads and the hash that row chains from. The
     * chain's beginning; a retention job that removes the oldest rows moves it past them.
     */
    startSeq: bigint('start_seq', { mode: 'number' }).notNull(),
    startHash: bytea('start_hash').notNull(),
    /** When the chain began (migration 0048); rows written before carry no place in it. */
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The highest id written before the chain began: a row above it without a place was slipped in. */
    unchainedUpToId: bigint('unchained_up_to_id', { mode: 'number' }).notNull(),
  },
  (t) => [check('audit_chain_heads_start_not_past_end', sql`${t.startSeq} <= ${t.lastSeq} + 1`)],
);
