import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import {
  logExactCountLimit,
  type AccessLog,
  type ErrorLog,
  type AccessLogExportQuery,
  type ErrorLogExportQuery,
} from '@app/contract/logs';
import { rowsOf } from '#api/db/rows-of.ts';
import type { Db } from '#api/db/client.ts';
import {
  accessLogMatches,
  accessLogs,
  errorLogMatches,
  errorLogs,
  logCounters,
} from '#api/db/schema/logs.ts';
import { containsPattern, pageCount } from '#api/lib/pagination.ts';
import { searchAccessByDictionary } from './dictionary-search.ts';
import { createLogSearch } from './log-search.ts';
import { decodeCursor, encodeCursor } from './log-cursor.ts';
import { accessLogExportCsv, errorLogExportCsv } from './log-export.ts';
import { logFilterConditions } from './log-filters.ts';
import { toAccessLog, toErrorLog } from './log-items.ts';

export type LogListInput = {
  page: number;
  limit: number;
  search?: string;
  userId?: string;
  machineNumber?: string;
  recordId?: string;
  after?: string;
  /** UTC days, both included. */
  from?: string;
  to?: string;
};

/**
 * The Admin Logs lists. Each page is an index range read newest first; with `after` it continues
 * from the previous page's last row, so depth costs nothing. 'Page X of Y' comes from the counter
 * table for the common cases (everything, one user, one machine); a search reads the newest rows
 * first and scales their match rate, or counts rare matches exactly (searchPage): milliseconds
 * either way at millions of rows (bench/logs.mjs).
 */
export function createLogsService({ db }: { db: Db }) {
  const searchPage = createLogSearch(db);
  // The lists' hot reads, built once and prepared (decision 040): the counter, and the first page
  // without a search, a filter or a cursor (what the Admin Logs screen opens with).
  const counter = db
    .select({ n: logCounters.n })
    .from(logCounters)
    .where(
      and(
        eq(logCounters.logKind, sql.placeholder('kind')),
        eq(logCounters.scope, sql.placeholder('scope')),
        eq(logCounters.key, sql.placeholder('key')),
      ),
    )
    .prepare('log_counter');
  const newestFirst = (t: typeof accessLogs) => [
    sql`${t.createdAt} desc nulls last`,
    sql`${t.id} desc nulls last`,
  ];
  // The list never shows a list read's ids (up to 100 UUIDs a row): they stay in the table for the
  // access history (decision 048) and are not read, parsed and dropped on every page.
  const { listedIds: _notShown, ...accessColumns } = getTableColumns(accessLogs);
  const columnsOf = (t: typeof accessLogs) =>
    (t === accessLogs ? accessColumns : getTableColumns(errorLogs)) as typeof accessColumns;
  const unfilteredPage = (t: typeof accessLogs, name: string) =>
    db
      .select(columnsOf(t))
      .from(t)
      .orderBy(...newestFirst(t))
      .limit(sql.placeholder('take'))
      .offset(sql.placeholder('skip'))
      .prepare(name);
  const unfilteredPages = {
    access: unfilteredPage(accessLogs, 'access_logs_page'),
    error: unfilteredPage(errorLogs as unknown as typeof accessLogs, 'error_logs_page'),
  };

  async function exactCount(kind: 'access' | 'error', scope: 'all' | 'user' | 'machine', key: string) {
    const [row] = await counter.execute({ kind, scope, key });
    return Math.max(0, Number(row?.n ?? 0));
  }

  /** The planner's row estimate for a filter on indexed columns: a millisecond. */
  async function estimate(table: typeof accessLogs, where: SQL | undefined) {
    const result = await db.execute(
      sql`explain (format json) ${db
        .select({ one: sql`1` })
        .from(table)
        .where(where)}`,
    );
    const raw = rowsOf(result)[0]?.['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
    return Math.round(plan[0].Plan['Plan Rows']);
  }

  /** Exact up to logExactCountLimit matches, the estimate past it. */
  async function filteredCount(table: typeof accessLogs, where: SQL | undefined) {
    const guess = await estimate(table, where);
    if (guess > logExactCountLimit) return { total: guess, estimated: true };
    const inner = db
      .select({ one: sql`1` })
      .from(table)
      .where(where)
      .limit(logExactCountLimit + 1)
      .as('capped');
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
    const n = Number(row?.n ?? 0);
    return n > logExactCountLimit
      ? { total: Math.max(guess, n), estimated: true }
      : { total: n, estimated: false };
  }

  async function list<Row extends { createdAt: Date; id: number }, R>(
    kind: 'access' | 'error',
    table: typeof accessLogs | typeof errorLogs,
    matches: (pattern: string) => SQL,
    input: LogListInput,
    toItem: (row: Row) => R,
  ) {
    const t = table as typeof accessLogs;
    const cursor = input.after ? decodeCursor(input.after) : null;
    const filters = logFilterConditions(kind, t, input);
    const where = filters.length ? and(...filters) : undefined;
    const afterCursor = cursor
      ? sql`(${t.createdAt}, ${t.id}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.id})`
      : undefined;
    const pageWhere = and(where, afterCursor);
    // With a cursor the rows before this page are behind it; without, they are skipped.
    const before = (input.page - 1) * input.limit;
    const skip = cursor ? 0 : before;
    const order = newestFirst(t);

    // The list's size without the search: kept in log_counters for everything, a user, a machine.
    // A record or a day range narrows past what they count.
    const counted = !input.recordId && !input.from && !input.to;
    const scopeSize = () =>
      !counted
        ? null
        : !input.userId && !input.machineNumber
          ? exactCount(kind, 'all', '')
          : input.userId && !input.machineNumber
            ? exactCount(kind, 'user', input.userId)
            : input.machineNumber && !input.userId
              ? exactCount(kind, 'machine', input.machineNumber)
              : null;

    let rows: Row[];
    let total: number;
    let estimated: boolean;
    if (input.search) {
      const matchesSearch = matches(containsPattern(input.search));
      // A plain access-log search first asks the dictionary (exact, index ranges only).
      const named =
        kind === 'access' && !where
          ? await searchAccessByDictionary(db, input.search, afterCursor, skip, input.limit + 1)
          : null;
      const found =
        named ??
        (await searchPage(t, pageWhere, matchesSearch, skip, input.limit + 1, async () => {
          const known = scopeSize();
          return known ? known : estimate(t, where);
        }));
      const byId = found.ids.length
        ? ((await db
            .select(columnsOf(t))
            .from(t)
            .where(inArray(t.id, found.ids))
            .orderBy(...order)) as unknown as Row[])
        : [];
      rows = byId;
      // The dictionary counts the whole search; the general way counts from the cursor on.
      total = named ? found.total : found.total + (cursor ? before : 0);
      estimated = found.estimated;
    } else {
      const rowsQuery = pageWhere
        ? db
            .select(columnsOf(t))
            .from(t)
            .where(pageWhere)
            .orderBy(...order)
            .limit(input.limit + 1)
            .offset(skip)
        : unfilteredPages[kind].execute({ take: input.limit + 1, skip });
      const known = scopeSize();
      const [page, counted] = await Promise.all([
        rowsQuery as unknown as Promise<Row[]>,
        known ? known.then((n) => ({ total: n, estimated: false })) : filteredCount(t, where),
      ]);
      rows = page;
      ({ total, estimated } = counted);
    }

    const hasMore = rows.length > input.limit;
    const pageRows = hasMore ? rows.slice(0, input.limit) : rows;
    const last = pageRows[pageRows.length - 1];
    // An estimate never contradicts what this page has seen: the rows before it, its own, one more.
    const seen = before + pageRows.length;
    if (estimated)
      ({ total, estimated } = hasMore
        ? { total: Math.max(total, seen + 1), estimated: true }
        : { total: seen, estimated: false });
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
    exportAccess: (q: AccessLogExportQuery, counted: (rows: number) => void) =>
      accessLogExportCsv(db, q, counted),
    exportErrors: (q: ErrorLogExportQuery, counted: (rows: number) => void) =>
      errorLogExportCsv(db, q, counted),
    listAccess(input: LogListInput) {
      return list<Omit<typeof accessLogs.$inferSelect, 'listedIds'>, AccessLog>(
        'access',
        accessLogs,
        (p) => accessLogMatches(accessLogs, p),
        input,
        toAccessLog,
      );
    },
    listErrors(input: LogListInput) {
      return list<typeof errorLogs.$inferSelect, ErrorLog>(
        'error',
        errorLogs,
        (p) => errorLogMatches(errorLogs, p),
        input,
        toErrorLog,
      );
    },
  };
}
export type LogsService = ReturnType<typeof createLogsService>;
