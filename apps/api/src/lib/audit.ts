import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { apiMessages } from '@app/contract/envelope';
import type { RecordKind } from '@app/contract/logs';
import type { Db } from '../db/client.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import './request-context.ts';
import { writeInBatches } from './audit-batch-writer.ts';
import { createBatchWriter } from './batch-writer.ts';
import { AppError } from './errors.ts';
import { createFailureAggregator } from './failure-aggregator.ts';

/*
 * The audit trail (Admin Logs), written by the API itself. Requests only push a row into memory;
 * a timer writes the rows in batches (every ~250 ms or 500 rows, and on close), so a log write
 * never slows or fails the request it describes. Rows never hold secrets: the resource is the
 * method and the route pattern (no ids of opaque tokens, no query string), never a body or header.
 * Except what health data a person saw or took away (a record view or reveal, an export: decision
 * 064): those rows are written on their own and committed before the first byte of the answer
 * leaves (`accessNow`), and when they cannot be written the answer is withheld.
 */

export type AccessEntry = typeof accessLogs.$inferInsert;
export type ErrorEntry = typeof errorLogs.$inferInsert;

/**
 * A row that had to be in the trail before its answer could not be written: the answer is withheld
 * (503, as when the database is away), since data shown without its row is data shown unaccounted.
 */
class AuditUnwrittenError extends AppError {
  constructor(cause: unknown) {
    super(503, apiMessages.unavailable);
    this.cause = cause;
  }
}

type Options = {
  db: Db;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  flushIntervalMs?: number;
  maxBatch?: number;
  /** Rows kept in memory while the database is unreachable; older ones are dropped past this. */
  maxBuffered?: number;
  /** How long repeated anonymous failures from one address are counted before their summary row. */
  aggregateWindowMs?: number;
};

/**
 * The client's address as the log stores it. With TRUST_PROXY the address comes from a header the
 * client writes; anything that is not an IP address is dropped, so the column only ever holds
 * addresses (the table's check, and the search, rely on it).
 */
export const clientAddress = (request: { ip: string }): string | null =>
  /^[0-9A-Fa-f:.]{2,45}$/.test(request.ip) ? request.ip : null;

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL can store: a log row copies what the client sent (an email, a machine number),
 * even from a request refused for holding a NUL or a lone surrogate, so both become U+FFFD.
 */
function storableText<T extends object>(entry: T): T {
  const out = { ...entry };
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === 'string')
      (out as Record<string, unknown>)[key] = value
        .replaceAll('\u0000', '\uFFFD')
        .replace(loneSurrogate, '\uFFFD');
  }
  return out;
}

export function createAuditLog({
  db,
  now = () => new Date(),
  log,
  flushIntervalMs = 250,
  maxBatch = 500,
  maxBuffered = 50_000,
  aggregateWindowMs = 60_000,
}: Options) {
  /** Rows lost: refused by the database for their content (audit-batch-writer.ts), or pushed out of a full buffer. */
  let dropped = 0;

  const bound = <T>(rows: T[]): T[] => {
    if (rows.length <= maxBuffered) return rows;
    log?.warn({ dropped: rows.length - maxBuffered }, 'audit: buffer full, oldest log rows dropped');
    dropped += rows.length - maxBuffered;
    return rows.slice(rows.length - maxBuffered);
  };

  const writeRows = <T>(rows: T[], insert: (batch: T[]) => Promise<unknown>, kind: string) =>
    writeInBatches(rows, insert, { kind, maxBatch, log, onDropped: () => dropped++ });

  type Rows = { access: AccessEntry[]; errors: ErrorEntry[] };
  const writer = createBatchWriter<Rows>({
    flushIntervalMs,
    flushAtSize: maxBatch,
    empty: () => ({ access: [], errors: [] }),
    size: (rows) => rows.access.length + rows.errors.length,
    // Unwritten rows wait for the next round (the database may be back), unless we are closing;
    // the requests they describe have long been answered.
    putBack: (left, since) => ({
      access: bound([...left.access, ...since.access]),
      errors: bound([...left.errors, ...since.errors]),
    }),
    write: async (rows) => ({
      access: await writeRows(rows.access, (batch) => db.insert(accessLogs).values(batch), 'access'),
      errors: await writeRows(rows.errors, (batch) => db.insert(errorLogs).values(batch), 'error'),
    }),
  });

  const pushAccess = (entry: Omit<AccessEntry, 'createdAt'> & { createdAt?: Date }) =>
    writer.add((rows) => {
      rows.access.push({ ...storableText(entry), createdAt: entry.createdAt ?? now() });
      rows.access = bound(rows.access);
    });

  /**
   * One access row written now, alone (not with the batch), and committed when this resolves: on
   * PostgreSQL a single INSERT is its own transaction, flushed to the WAL on disk before the server
   * acknowledges it; on PGlite its WAL is written to the file system before the query resolves
   * (decision 018). Throws an AuditUnwrittenError when the database will not take it, so the caller
   * sends nothing it would have to account for.
   */
  async function accessNow(entry: Omit<AccessEntry, 'createdAt'> & { createdAt?: Date }): Promise<void> {
    try {
      await db.insert(accessLogs).values({ ...storableText(entry), createdAt: entry.createdAt ?? now() });
    } catch (err) {
      log?.error({ err }, 'audit: a row that must be written at once could not be written');
      throw new AuditUnwrittenError(err);
    }
  }

  const pushError = (entry: Omit<ErrorEntry, 'createdAt'> & { createdAt?: Date }) =>
    writer.add((rows) => {
      rows.errors.push({ ...storableText(entry), createdAt: entry.createdAt ?? now() });
      rows.errors = bound(rows.errors);
    });
  // Repeated anonymous failures: counted, one summary row per window (failure-aggregator.ts).
  const anonymous = createFailureAggregator({
    emit: pushError,
    now: () => now().getTime(),
    windowMs: aggregateWindowMs,
  });
  const sweep = setInterval(() => anonymous.sweep(), Math.min(aggregateWindowMs / 4, 15_000));
  sweep.unref();

  return {
    access: pushAccess,
    accessNow,
    error: pushError,
    /** An anonymous failure: its own row only when it is not a repeat from that address this window. */
    anonymousError(address: string, entry: Omit<ErrorEntry, 'createdAt'>) {
      const row = { ...entry, createdAt: now() };
      if (anonymous.admit(address, row)) pushError(row);
    },
    /**
     * A look at one health record; with `revealed`, a reveal of its masked contact data: the fields
     * shown and the reason given (decision 045), never the values. Committed when this resolves,
     * before the handler answers (decision 064); throws when it cannot be, and the record is not sent.
     */
    async recordView(
      request: FastifyRequest,
      record: { kind: RecordKind; id: string | number; machineNumber?: string | null },
      revealed?: { fields: readonly string[]; reason: string },
    ): Promise<void> {
      const auth = request.auth;
      if (!auth) return;
      // The request's own row goes before the answer too (audit-hooks.ts), and names no record.
      request.auditRecordViewed = true;
      const what = `${record.kind} ${String(record.id)}`;
      await accessNow({
        userId: auth.userId,
        userEmail: auth.email,
        resource: (revealed
          ? `REVEAL ${what}: ${revealed.fields.join(', ')} (reason: ${revealed.reason})`
          : `VIEW ${what}`
        ).slice(0, 200),
        location: clientAddress(request),
        statusCode: null,
        durationMs: null,
        machineNumber: record.machineNumber ?? null,
        recordKind: record.kind,
        recordId: String(record.id).slice(0, 64),
      });
    },
    /** Writes everything buffered so far; resolves when it is in the database (or given up). */
    flush: writer.flush,
    /** For health checks and the fuzz suite: rows waiting in memory, rows lost. */
    stats: () => ({ buffered: writer.size(), dropped }),
    async close() {
      clearInterval(sweep);
      anonymous.closeAll();
      await writer.close();
    },
  };
}
export type AuditLog = ReturnType<typeof createAuditLog>;

declare module 'fastify' {
  interface FastifyInstance {
    audit: AuditLog;
  }
  interface FastifyContextConfig {
    /** The handler's name in the error log; derived from the method and route when left out. */
    functionName?: string;
    /**
     * A read the console makes by itself (its session, the admin's own profile and settings, the
     * bell's count): answered, it leaves no access row, else they were a third of Admin Logs
     * (issue 35 item 10). Refused or failed, it still does.
     */
    backgroundRead?: boolean;
  }
  interface FastifyRequest {
    auditMessage?: string;
    /** The handler read one record (recordView): its row lands before the answer. */
    auditRecordViewed?: boolean;
    /** The rows were written before the answer (onSend); onResponse leaves it. */
    auditRecorded?: boolean;
    /** The one record a write acts on, when the handler names it (audit-records.ts names the rest). */
    auditRecord?: { kind: RecordKind; id: string };
    /** The machine a console action is about when the route names it by id (enrolment). */
    auditMachineNumber?: string;
    /** Refused by the anonymous rate limit (anonymous-rate-limit.ts) before the handler ran. */
    anonymousRateLimited?: boolean;
  }
}
