import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea } from './audit-chain.ts';

/*
 * Admin Logs: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE: migration 0014_audit_append_only,
 * docs/decisions/013), the largest tables. Every list reads an index range ordered by
 * (created_at, id) newest first: overall, per user, per machine; search goes through a trigram
 * index over the same expression the queries use. Timestamps keep milliseconds only, so a page
 * cursor taken from a JavaScript Date points at exactly one row.
 *
 * user_id is text, not a foreign key: log rows outlive deleted users, and device-side users
 * (doctors, patients, technicians) have their own ids.
 *
 * Both are hash-chained (decision 080, migration 0048): an insert trigger gives every row its place
 * in its table's chain (chain_seq, assigned in commit order under one lock; ids are taken before it,
 * so they are not that order) and chain_hash = sha256(the previous row's chain_hash || the row's
 * canonical text). Never set by the application: the trigger overwrites whatever an insert says.
 */

export const accessLogs = pgTable(
  'access_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    userId: text('user_id'),
    userEmail: text('user_email'),
    /** Method and route pattern (never the raw URL: no ids of secrets, no query strings). */
    resource: text('resource').notNull(),
    /** The client's IP address. */
    location: text('location'),
    statusCode: smallint('status_code'),
    durationMs: integer('duration_ms'),
    machineNumber: text('machine_number'),
    /**
     * The record a row is about: the patient/doctor/treatment a view read, the device, user or role
     * a write changed; on a list read of health data, the kind of the rows it returned (decision 048).
     */
    recordKind: text('record_kind'),
    recordId: text('record_id'),
    /** A write's changed fields, by name only: never a value (decision 048). */
    changedFields: text('changed_fields').array(),
    /** A list read of health data: the ids of the rows it returned, at most a page (100). */
    listedIds: uuid('listed_ids').array(),
    /** Set on security-event rows: sign-in, logout, password and MFA events (lib/security-events.ts). */
    event: text('event'),
    /** Rows a machine's app sent: the app's id for the row (idempotency key per machine) and when it arrived. */
    clientId: uuid('client_id'),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }),
    /** The row's place in its table's hash chain and its hash (decision 080): set by the insert trigger. */
    chainSeq: bigint('chain_seq', { mode: 'number' }),
    chainHash: bytea('chain_hash'),
    /**
     * The customer the row is about (decision 087): for a machine's row, the one that held the
     * machine at created_at (the stamping trigger, migration 0055); for a write about a customer,
     * that customer. No foreign key: log rows outlive what they name. Not in the chain's text.
     */
    customerId: uuid('customer_id'),
  },
  (t) => [
    // Verification reads the chain in order by ranges; a row without a place is found at once.
    uniqueIndex('access_logs_chain_seq_idx').on(t.chainSeq),
    index('access_logs_unchained_idx')
      .on(t.id)
      .where(sql`${t.chainSeq} is null`),
    uniqueIndex('access_logs_machine_client_id_idx')
      .on(t.machineNumber, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index('access_logs_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('access_logs_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('access_logs_machine_created_idx').on(t.machineNumber, t.createdAt.desc(), t.id.desc()),
    index('access_logs_customer_created_idx')
      .on(t.customerId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.customerId} is not null`),
    // A search term that names emails, routes or addresses reads these ranges (decision 007, "dictionary").
    index('access_logs_email_created_idx').on(t.userEmail, t.createdAt.desc(), t.id.desc()),
    index('access_logs_resource_created_idx').on(t.resource, t.createdAt.desc(), t.id.desc()),
    index('access_logs_address_created_idx').on(t.location, t.createdAt.desc(), t.id.desc()),
    index('access_logs_record_created_idx')
      .on(t.recordId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.recordId} is not null`),
    // "Which list reads returned this patient": the access history reads it (decision 048).
    index('access_logs_listed_ids_idx')
      .using('gin', t.listedIds)
      .where(sql`${t.listedIds} is not null`),
    index('access_logs_search_trgm_idx').using('gin', sql`(${accessLogSearchText(t)}) gin_trgm_ops`),
    // Only an address: the search relies on it (a term with other characters cannot match here).
    check('access_logs_location_is_address', sql`${t.location} ~ '^[0-9A-Fa-f:.]+$'`),
  ],
);

export const errorLogs = pgTable(
  'error_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    userId: text('user_id'),
    userEmail: text('user_email'),
    resource: text('resource').notNull(),
    /** The route handler that failed. */
    functionName: text('function_name').notNull(),
    statusCode: smallint('status_code'),
    /** The msg the client got (for a 500: the generic text with the error id). */
    message: text('message'),
    location: text('location'),
    machineNumber: text('machine_number'),
    /** Set on security-event rows: a refused sign-in ('login.failure'), a refused request ('access.denied'). */
    event: text('event'),
    clientId: uuid('client_id'),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }),
    /** The row's place in its table's hash chain and its hash (decision 080): set by the insert trigger. */
    chainSeq: bigint('chain_seq', { mode: 'number' }),
    chainHash: bytea('chain_hash'),
    /**
     * The customer the row is about (decision 087): for a machine's row, the one that held the
     * machine at created_at (the stamping trigger, migration 0055); for a write about a customer,
     * that customer. No foreign key: log rows outlive what they name. Not in the chain's text.
     */
    customerId: uuid('customer_id'),
  },
  (t) => [
    // Verification reads the chain in order by ranges; a row without a place is found at once.
    uniqueIndex('error_logs_chain_seq_idx').on(t.chainSeq),
    index('error_logs_unchained_idx')
      .on(t.id)
      .where(sql`${t.chainSeq} is null`),
    uniqueIndex('error_logs_machine_client_id_idx')
      .on(t.machineNumber, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index('error_logs_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('error_logs_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('error_logs_machine_created_idx').on(t.machineNumber, t.createdAt.desc(), t.id.desc()),
    index('error_logs_customer_created_idx')
      .on(t.customerId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.customerId} is not null`),
    index('error_logs_search_trgm_idx').using('gin', sql`(${errorLogSearchText(t)}) gin_trgm_ops`),
    check('error_logs_location_is_address', sql`${t.location} ~ '^[0-9A-Fa-f:.]+$'`),
  ],
);

/**
 * Row counts kept as rows are written (statement triggers in the migration), so 'Page X of Y'
 * is exact and instant for the whole table, one user and one machine. The email, resource,
 * address and machine keys double as the dictionary of the values those columns hold, which a
 * search reads first (decision 007): a trigram index over the keys finds which values a term names.
 * scope: 'all' (key ''), 'user' (key user_id), 'machine' (key machine_number),
 * 'email' (key user_email), 'resource' (key resource), 'address' (key location).
 */
export const logCounters = pgTable(
  'log_counters',
  {
    logKind: text('log_kind', { enum: ['access', 'error'] }).notNull(),
    scope: text('scope', { enum: ['all', 'user', 'machine', 'email', 'resource', 'address'] }).notNull(),
    key: text('key').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.logKind, t.scope, t.key] }),
    index('log_counters_key_trgm_idx').using('gin', sql`${t.key} gin_trgm_ops`),
  ],
);

type SearchColumns = { resource: unknown; userEmail: unknown; location: unknown; machineNumber: unknown };

/**
 * A search matches a log when one of its fields contains the term (case-insensitively). The
 * trigram index is built on the fields joined by spaces: that test comes first, so the index can
 * find candidates, and the per-field test then refuses a term that only spans two fields.
 */
export function accessLogMatches(t: SearchColumns, pattern: string): SQL {
  const fields = [t.resource, t.userEmail, t.location, t.machineNumber];
  return sql`((${accessLogSearchText(t)}) ilike ${pattern} and (${sql.join(
    fields.map((f) => sql`${f} ilike ${pattern}`),
    sql` or `,
  )}))`;
}

export function errorLogMatches(
  t: SearchColumns & { functionName: unknown; message: unknown },
  pattern: string,
): SQL {
  const fields = [t.resource, t.functionName, t.message, t.userEmail, t.location, t.machineNumber];
  return sql`((${errorLogSearchText(t)}) ilike ${pattern} and (${sql.join(
    fields.map((f) => sql`${f} ilike ${pattern}`),
    sql` or `,
  )}))`;
}

/** The searched text; the trigram index is built on exactly this expression. */
export function accessLogSearchText(t: SearchColumns): SQL {
  return sql`${t.resource} || ' ' || coalesce(${t.userEmail}, '') || ' ' || coalesce(${t.location}, '') || ' ' || coalesce(${t.machineNumber}, '')`;
}

export function errorLogSearchText(t: SearchColumns & { functionName: unknown; message: unknown }): SQL {
  return sql`${t.resource} || ' ' || ${t.functionName} || ' ' || coalesce(${t.message}, '') || ' ' || coalesce(${t.userEmail}, '') || ' ' || coalesce(${t.location}, '') || ' ' || coalesce(${t.machineNumber}, '')`;
}
