import { and, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { logExactCountLimit, logMessages, type AccessLog, type ErrorLog } from '@app/contract/logs';
import type { Db } from '../../db/client.ts';
import { accessLogSearchText, accessLogs, errorLogSearchText, errorLogs, logCounters } from '../../db/schema/logs.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { containsPattern, pageCount } from '../../lib/pagination.ts';

export type LogListInput = {
  page: number;
  limit: number;
  search?: string;
  userId?: string;
  machineNumber?: string;
  recordId?: string;
  after?: string;
};

type Cursor = { at: Date; id: number };

/** The last row of a page as an opaque token: milliseconds and id (timestamps keep milliseconds only). */
export const encodeCursor = (row: { createdAt: Date; id: number }) =>
  Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');

function decodeCursor(token: string): Cursor {
  const match = /^(\d{1,15})\.(\d{1,18})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match) throw new BadRequestError(logMessages.invalidCursor);
  return { at: new Date(Number(match[1])), id: Number(match[2]) };
}

const iso = (d: Date) => d.toISOString();
const logUser = (userId: string | null, email: string | null) => (userId ? { userId, email } : null);

/**
 * The Admin Logs lists. Each page is an index range read newest first; with `after` it continues
 * from the previous page's last row, so depth costs nothing. 'Page X of Y' comes from the counter
 * table for the common cases (everything, one user, one machine); a search counts its matches
 * exactly when the planner expects few, else takes the planner's estimate: milliseconds either way
 * at millions of rows (bench/logs.mjs).
 */
export function createLogsService({ db }: { db: Db }) {
  async function exactCount(kind: 'access' | 'error', scope: 'all' | 'user' | 'machine', key: string) {
    const [row] = await db
      .select({ n: logCounters.n })
      .from(logCounters)
      .where(and(eq(logCounters.logKind, kind), eq(logCounters.scope, scope), eq(logCounters.key, key)));
    return Math.max(0, Number(row?.n ?? 0));
  }

  /** The planner's row estimate for the filter: a millisecond, with pg_trgm's statistics for searches. */
  async function estimate(table: typeof accessLogs, where: SQL | undefined) {
    const result = await db.execute(sql`explain (format json) ${db.select({ one: sql`1` }).from(table).where(where)}`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
    const raw = rows[0]?.['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
    return Math.round(plan[0].Plan['Plan Rows']);
  }

  /** Exact up to logExactCountLimit matches, the estimate past it. */
  async function filteredCount(table: typeof accessLogs, where: SQL | undefined) {
    const guess = await estimate(table, where);
    if (guess > logExactCountLimit) return { total: guess, estimated: true };
    const inner = db.select({ one: sql`1` }).from(table).where(where).limit(logExactCountLimit + 1).as('capped');
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
    const n = Number(row?.n ?? 0);
    return n > logExactCountLimit ? { total: Math.max(guess, n), estimated: true } : { total: n, estimated: false };
  }

  async function list<Row extends { createdAt: Date; id: number }, R>(
    kind: 'access' | 'error',
    table: typeof accessLogs | typeof errorLogs,
    searchText: SQL,
    input: LogListInput,
    extra: SQL[],
    toItem: (row: Row) => R,
  ) {
    const cursor = input.after ? decodeCursor(input.after) : null;
    const filters: SQL[] = [...extra];
    if (input.userId) filters.push(eq(table.userId, input.userId));
    if (input.machineNumber) filters.push(eq(table.machineNumber, input.machineNumber));
    if (input.search) filters.push(ilike(sql`(${searchText})`, containsPattern(input.search)));
    const where = filters.length ? and(...filters) : undefined;

    const pageWhere = cursor
      ? and(where, sql`(${table.createdAt}, ${table.id}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.id})`)
      : where;
    // Both tables share the columns read here; the row type is the caller's.
    const rowsQuery = db
      .select()
      .from(table as typeof accessLogs)
      .where(pageWhere)
      // Spelled out to match the indexes (DESC NULLS LAST).
      .orderBy(sql`${table.createdAt} desc nulls last`, sql`${table.id} desc nulls last`)
      .limit(input.limit + 1)
      .offset(cursor ? 0 : (input.page - 1) * input.limit);

    const plain = !input.search && extra.length === 0;
    const countQuery =
      plain && !input.userId && !input.machineNumber
        ? exactCount(kind, 'all', '').then((total) => ({ total, estimated: false }))
        : plain && input.userId && !input.machineNumber
          ? exactCount(kind, 'user', input.userId).then((total) => ({ total, estimated: false }))
          : plain && input.machineNumber && !input.userId
            ? exactCount(kind, 'machine', input.machineNumber).then((total) => ({ total, estimated: false }))
            : filteredCount(table as typeof accessLogs, where);

    const [rows, counted] = await Promise.all([rowsQuery as unknown as Promise<Row[]>, countQuery]);
    const hasMore = rows.length > input.limit;
    const pageRows = hasMore ? rows.slice(0, input.limit) : rows;
    const last = pageRows[pageRows.length - 1];
    // An estimate never contradicts what this page has seen: the rows before it, its own, one more.
    const seen = (input.page - 1) * input.limit + pageRows.length;
    const { total, estimated } = !counted.estimated
      ? counted
      : hasMore
        ? { total: Math.max(counted.total, seen + 1), estimated: true }
        : { total: seen, estimated: false };
    return {
      logs: pageRows.map(toItem),
      total_pages: pageCount(total, input.limit),
      total,
      totalIsEstimate: estimated,
      page: input.page,
      limit: input.limit,
      nextCursor: hasMore && last ? encodeCursor(last) : null,
    };
  }

  return {
    listAccess(input: LogListInput) {
      const extra = input.recordId ? [eq(accessLogs.recordId, input.recordId)] : [];
      return list<typeof accessLogs.$inferSelect, AccessLog>('access', accessLogs, accessLogSearchText(accessLogs), input, extra, (r): AccessLog => ({
        _id: String(r.id),
        resource: r.resource,
        location: r.location,
        time: iso(r.createdAt),
        createdTime: iso(r.createdAt),
        userEmail: r.userEmail,
        user: logUser(r.userId, r.userEmail),
        machineNumber: r.machineNumber,
        statusCode: r.statusCode,
        recordKind: r.recordKind,
        recordId: r.recordId,
      }));
    },
    listErrors(input: LogListInput) {
      // Error rows name no record; a recordId filter matches none of them.
      const extra = input.recordId ? [sql`false`] : [];
      return list<typeof errorLogs.$inferSelect, ErrorLog>('error', errorLogs, errorLogSearchText(errorLogs), input, extra, (r): ErrorLog => ({
        _id: String(r.id),
        resource: r.resource,
        functionName: r.functionName,
        utcTime: iso(r.createdAt),
        createdTime: iso(r.createdAt),
        userEmail: r.userEmail,
        user: logUser(r.userId, r.userEmail),
        machineNumber: r.machineNumber,
        statusCode: r.statusCode,
        message: r.message,
        location: r.location,
      }));
    },
  };
}
export type LogsService = ReturnType<typeof createLogsService>;
