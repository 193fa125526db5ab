import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import './request-context.ts';
import { accessDenied, claimedEmail, logSecurityEvent, securityEventOf } from './security-events.ts';
import { createFailureAggregator } from './failure-aggregator.ts';
import { limiterAddress } from './anonymous-rate-limit.ts';

/*
 * The audit trail (Admin Logs), written by the API itself. Requests only push a row into memory;
 * a timer writes the rows in batches (every ~250 ms or 500 rows, and on close), so a log write
 * never slows or fails the request it describes. Rows never hold secrets: the resource is the
 * method and the route pattern (no ids of opaque tokens, no query string), never a body or header.
 */

export type AccessEntry = typeof accessLogs.$inferInsert;
export type ErrorEntry = typeof errorLogs.$inferInsert;

export type RecordKind = 'patient' | 'doctor' | 'technician' | 'treatment' | 'device' | 'user' | 'role';

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

/** SQLSTATE class 22 (data exception) or 23 (integrity constraint): the row, not the database, is the problem. */
function isRowRejected(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

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
  let access: AccessEntry[] = [];
  let errors: ErrorEntry[] = [];
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  /** Rows lost: refused by the database for their content (see writeRows), or pushed out of a full buffer. */
  let dropped = 0;

  const bound = <T>(rows: T[]): T[] => {
    if (rows.length <= maxBuffered) return rows;
    log?.warn({ dropped: rows.length - maxBuffered }, 'audit: buffer full, oldest log rows dropped');
    dropped += rows.length - maxBuffered;
    return rows.slice(rows.length - maxBuffered);
  };

  /**
   * Writes the rows in batches; returns the rows still to write (from the first batch the database
   * could not take at all). A batch refused because of one of its rows (bad bytes, a broken
   * check) is written row by row, so only that row is lost: one bad row must never hold back the
   * audit trail (it did: a NUL in a query parameter stopped every later row from landing).
   */
  async function writeRows<T>(
    rows: T[],
    insert: (batch: T[]) => Promise<unknown>,
    kind: string,
  ): Promise<T[]> {
    for (let i = 0; i < rows.length; i += maxBatch) {
      const batch = rows.slice(i, i + maxBatch);
      try {
        await insert(batch);
        continue;
      } catch (err) {
        if (!isRowRejected(err)) {
          log?.error({ err, rows: batch.length }, `audit: writing ${kind} logs failed`);
          return rows.slice(i);
        }
      }
      for (let j = 0; j < batch.length; j++) {
        try {
          await insert([batch[j]!]);
        } catch (err) {
          if (!isRowRejected(err)) {
            log?.error({ err, rows: batch.length - j }, `audit: writing ${kind} logs failed`);
            return rows.slice(i + j);
          }
          dropped++;
          log?.error({ err }, `audit: the database refused one ${kind} log row; it is dropped`);
        }
      }
    }
    return [];
  }

  async function write() {
    const a = access;
    const e = errors;
    access = [];
    errors = [];
    // Unwritten rows wait for the next round (the database may be back), unless we are closing;
    // the requests they describe have long been answered.
    const accessLeft = await writeRows(a, (batch) => db.insert(accessLogs).values(batch), 'access');
    if (accessLeft.length && !closed) access = bound([...accessLeft, ...access]);
    const errorsLeft = await writeRows(e, (batch) => db.insert(errorLogs).values(batch), 'error');
    if (errorsLeft.length && !closed) errors = bound([...errorsLeft, ...errors]);
  }

  /** Writes everything buffered so far; resolves when it is in the database (or given up). */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    chain = chain.then(write, write);
    return chain;
  }

  function schedule() {
    if (access.length + errors.length >= maxBatch) {
      void flush();
      return;
    }
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, flushIntervalMs);
    timer.unref();
  }

  const pushAccess = (entry: Omit<AccessEntry, 'createdAt'> & { createdAt?: Date }) => {
    access.push({ ...storableText(entry), createdAt: entry.createdAt ?? now() });
    access = bound(access);
    schedule();
  };

  const pushError = (entry: Omit<ErrorEntry, 'createdAt'> & { createdAt?: Date }) => {
    errors.push({ ...storableText(entry), createdAt: entry.createdAt ?? now() });
    errors = bound(errors);
    schedule();
  };
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
    error: pushError,
    /** An anonymous failure: its own row only when it is not a repeat from that address this window. */
    anonymousError(address: string, entry: Omit<ErrorEntry, 'createdAt'>) {
      const row = { ...entry, createdAt: now() };
      if (anonymous.admit(address, row)) pushError(row);
    },
    /**
     * "Who looked at this patient": call when a handler reads one record. Writes an access row
     * naming the record (kind and id), the viewer and when.
     */
    recordView(
      request: FastifyRequest,
      record: { kind: RecordKind; id: string | number; machineNumber?: string | null },
    ) {
      const auth = request.auth;
      if (!auth) return;
      request.auditRecordViewed = true;
      pushAccess({
        userId: auth.userId,
        userEmail: auth.email,
        resource: `VIEW ${record.kind} ${String(record.id)}`.slice(0, 200),
        location: clientAddress(request),
        statusCode: null,
        durationMs: null,
        machineNumber: record.machineNumber ?? null,
        recordKind: record.kind,
        recordId: String(record.id).slice(0, 64),
      });
    },
    flush,
    /** For health checks and the fuzz suite: rows waiting in memory, rows lost. */
    stats: () => ({ buffered: access.length + errors.length, dropped }),
    async close() {
      clearInterval(sweep);
      anonymous.closeAll();
      closed = true;
      await flush();
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
  }
  interface FastifyRequest {
    auditMessage?: string;
    /** The handler read one record (recordView): its row lands before the answer. */
    auditRecordViewed?: boolean;
    /** The rows were written before the answer (onSend); onResponse leaves it. */
    auditRecorded?: boolean;
    /** The one record a write acts on (another user's authenticator reset): the access row names it. */
    auditRecord?: { kind: RecordKind; id: string };
    /** The machine a console action is about when the route names it by id (enrolment). */
    auditMachineNumber?: string;
    /** Refused by the anonymous rate limit (anonymous-rate-limit.ts) before the handler ran. */
    anonymousRateLimited?: boolean;
  }
}

const apiPrefix = /^\/api\/(v\d+\/admin\/)?/;

/** GET /api/v1/admin/users/:id → getUsersById; the handler's own name when it has one. */
export function handlerName(
  method: string,
  routeUrl: string | undefined,
  handler?: { readonly name: string },
): string {
  // Fastify binds handlers to the instance: 'bound updateUser'.
  const own = handler?.name.replace(/^(bound )+/, '');
  if (own && own !== 'anonymous') return own;
  if (!routeUrl) return 'notFound';
  const parts = routeUrl
    .replace(apiPrefix, '')
    .split('/')
    .filter(Boolean)
    .map((seg) =>
      seg.startsWith(':')
        ? `By${cap(seg.slice(1))}`
        : seg
            .split(/[^A-Za-z0-9]+/)
            .map(cap)
            .join(''),
    );
  return method.toLowerCase() + parts.join('');
}
const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** The path without its query, long opaque segments (tokens, ids) replaced: for unmatched routes only. */
function safePath(url: string): string {
  const path = url.split('?')[0]!.slice(0, 200);
  return path
    .split('/')
    .map((seg) => (seg.length >= 20 && /^[A-Za-z0-9._~%-]+$/.test(seg) ? ':redacted' : seg))
    .join('/');
}

/**
 * The machine a row is about: the machine's own call, or a console action on one machine
 * (enrolment), named by its handler. A console list filtered by `?machineNumber=` is a read by the
 * admin, not something the machine did: taking the filter as the machine put every opening of
 * Device Details (six list reads) into that machine's own Logs tab, between the rows its app sent.
 */
function machineNumberOf(request: FastifyRequest): string | null {
  return request.auditMachineNumber ?? request.device?.machineNumber ?? null;
}

/** Methods that only read: their rows may wait for the next batch. */
const readOnlyMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write (any method that may change data) and a read of one patient's, doctor's or treatment's
 * record are in the audit trail before the client hears back: a crash right after the answer
 * must not leave a change, or a look at a record, without its row. Other reads go in the next batch.
 */
const mustLandFirst = (request: FastifyRequest) =>
  !readOnlyMethods.has(request.method) || request.auditRecordViewed === true;

/**
 * A machine's successful calls (heartbeats, batches of records, thousands a second across a fleet)
 * write no API row: they would bury the Admin Logs and slow ingestion; the app sends its own logs.
 * Their failures still land in error_logs, and a security event (enrolment, sign-in) is still kept.
 */
export const quietDeviceSuccess = (request: Pick<FastifyRequest, 'routeOptions'>, statusCode: number) => {
  const { access, securityEvent } = request.routeOptions.config;
  return statusCode < 400 && (access === 'device' || access === 'app-user') && !securityEvent;
};

/** The request's rows: an access row when someone is signed in (or for a security event), an error row when it failed. */
function recordRequest(audit: AuditLog, request: FastifyRequest, reply: FastifyReply) {
  try {
    const route = request.routeOptions.url;
    const resource = `${request.method} ${route ?? safePath(request.url)}`;
    const auth = request.auth;
    const machineNumber = machineNumberOf(request);
    // Refused by the anonymous limiter before any work: not a sign-in (or other) attempt.
    const event = request.anonymousRateLimited ? null : securityEventOf(request, reply.statusCode);
    if (auth || (event && event !== accessDenied)) {
      // An anonymous security event (a sign-in, a password reset) is kept under the email given.
      audit.access({
        userId: auth?.userId ?? request.securitySubject?.userId ?? null,
        userEmail: auth ? auth.email : (request.securitySubject?.email ?? claimedEmail(request)),
        resource,
        location: clientAddress(request),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime),
        machineNumber,
        event,
        recordKind: request.auditRecord?.kind ?? null,
        recordId: request.auditRecord ? String(request.auditRecord.id).slice(0, 64) : null,
      });
    }
    if (reply.statusCode >= 400) {
      const entry = {
        userId: auth?.userId ?? null,
        userEmail: auth?.email ?? null,
        resource,
        functionName:
          request.routeOptions.config.functionName ??
          handlerName(request.method, route, request.routeOptions.handler),
        statusCode: reply.statusCode,
        message: request.auditMessage ?? null,
        location: clientAddress(request),
        machineNumber,
        event,
      };
      // Anonymous failures other than security events (a sign-in, a password reset: each one is
      // kept) are aggregated per address, so a flood cannot fill the append-only table.
      const anonymous = !auth && !request.device && !request.appUser;
      if (anonymous && (event === null || event === accessDenied))
        audit.anonymousError(limiterAddress(request), entry);
      else audit.error(entry);
    }
    if (event) logSecurityEvent(request, event, reply.statusCode);
  } catch (err) {
    request.log.error({ err }, 'audit: could not record the request');
  }
}

/** Every authenticated API request → an access row; every failed API request → an error row. */
export function installAuditHooks(app: FastifyInstance, audit: AuditLog) {
  app.decorate('audit', audit);
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.length < 10_000) {
      try {
        const msg = (JSON.parse(payload) as { msg?: unknown }).msg;
        if (typeof msg === 'string') request.auditMessage = msg.slice(0, 500);
      } catch {
        // Not JSON: nothing to keep.
      }
    }
    // Nothing to write for it, here or in onResponse.
    if (quietDeviceSuccess(request, reply.statusCode)) request.auditRecorded = true;
    else if (request.url.startsWith('/api/') && mustLandFirst(request)) {
      request.auditRecorded = true;
      recordRequest(audit, request, reply);
      // A database that cannot be written keeps the rows in memory (write() never throws).
      await audit.flush();
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith('/api/') || request.auditRecorded) return;
    recordRequest(audit, request, reply);
  });
  app.addHook('onClose', async () => {
    await audit.close();
  });
}
