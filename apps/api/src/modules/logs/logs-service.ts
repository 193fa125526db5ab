import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { logExactCountLimit, type AccessLog, type ErrorLog } from '@app/contract/logs';
import type { Db } from '#api/db/client.ts';
import {
  accessLogMatches,
  accessLogs,
  errorLogMatches,
  errorLogs,
  logCounters,
} from '#api/db/schema/logs.ts';
import { containsPattern, pageCount, pgErrorCode } from '#api/lib/pagination.ts';
import { searchAccessByDictionary } from './dictionary-search.ts';
import { decodeCursor, encodeCursor } from './log-cursor.ts';
import { toAccessLog, toErrorLog } from './log-items.ts';

export type LogListInput = {
  page: number;
  limit: number;
  search?: string;
  userId?: string;
  machineNumber?: string;
  recordId?: string;
  after?: string;
};

/** How many of the newest rows a search reads first (see searchPage). */
const searchWindow = 2_000;
/** The time a search may spend in the trigram index before it counts as common (see searchPage). */
const trigramBudgetMs = 250;
/** Below this many expected matches (the newest rows' rate times the list size) the trigram index is tried first. */
const trigramFirstBelow = 20_000;
/** How far back a common term's walk through the time index may go before the trigram index takes over. */
const searchWalkLimit = 1_000_000;

/**
 * The Admin Logs lists. Each page is an index range read newest first; with `after` it continues
 * from the previous page's last row, so depth costs nothing. 'Page X of Y' comes from the counter
 * table for the common cases (everything, one user, one machine); a search reads the newest rows
 * first and scales their match rate, or counts rare matches exactly (searchPage): milliseconds
 * either way at millions of rows (bench/logs.mjs).
 */
const rowsOf = (result: unknown) =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];

export function createLogsService({ db }: { db: Db }) {
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
  const unfilteredPage = (t: typeof accessLogs, name: string) =>
    db
      .select()
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

  /** Every match of a search through the trigram index, counted exactly; null when it takes longer than `budgetMs`. */
  async function searchByTrigrams(
    table: typeof accessLogs,
    base: SQL | undefined,
    matchesSearch: SQL,
    skip: number,
    take: number,
    budgetMs?: number,
  ) {
    const query = sql`
      with m as materialized (
        select ${table.id} as id, ${table.createdAt} as created_at from ${table}
        where ${base ? sql`${base} and ` : sql``}${matchesSearch}
      )
      select (select count(*)::int from m) as total,
        array(select id from m order by created_at desc, id desc offset ${skip} limit ${take}) as ids`;
    try {
      const row = budgetMs
        ? await db.transaction(async (tx) => {
            await tx.execute(sql.raw(`set local statement_timeout = ${Math.round(budgetMs)}`));
            return rowsOf(await tx.execute(query))[0]!;
          })
        : rowsOf(await db.execute(query))[0]!;
      return {
        ids: (row.ids as (string | number)[]).map(Number),
        total: Number(row.total),
        estimated: false,
      };
    } catch (error) {
      if (budgetMs && pgErrorCode(error) === '57014') return null;
      throw error;
    }
  }

  /**
   * A search's page ids and total. Trigram statistics cannot tell a common term from a rare one
   * (the planner guesses the same few hundred rows for every pattern), and each plan is ruinous on
   * the other kind of term, so the plan is chosen by looking. First the newest rows of the list are
   * read through the time index and searched: when they hold the page (a common term, the usual
   * case) it comes from them and their match rate gives the total, scaled to the list's size
   * (exact when they are the whole list). Otherwise the trigram index gets a short time budget to
   * find and count every match (a rare term). Past the budget the term is common after all (just
   * not among the newest rows): the walk goes on through older rows until the page is full.
   */
  async function searchPage(
    table: typeof accessLogs,
    base: SQL | undefined,
    matchesSearch: SQL,
    skip: number,
    take: number,
    listSize: () => Promise<number>,
  ): Promise<{ ids: number[]; total: number; estimated: boolean }> {
    const order = sql`${table.createdAt} desc nulls last, ${table.id} desc nulls last`;
    let size: number | undefined;
    let triedTrigrams = false;
    for (let window = searchWindow; ;) {
      const found = rowsOf(
        await db.execute(sql`
          with win as (
            select ${table.id} as id, ${table.createdAt} as created_at, (${matchesSearch}) as hit
            from ${table} ${base ? sql`where ${base}` : sql``}
            order by ${order}
            limit ${window}
          )
          select
            (select count(*)::int from win) as scanned,
            (select count(*)::int from win where hit) as matches,
            array(select id from win where hit order by created_at desc, id desc offset ${skip} limit ${take}) as ids`),
      )[0]!;
      const scanned = Number(found.scanned);
      const matches = Number(found.matches);
      const ids = (found.ids as (string | number)[]).map(Number);
      if (scanned < window) return { ids, total: matches, estimated: false };
      size ??= await listSize();
      if (ids.length === take)
        return { ids, total: Math.max(matches, Math.round((matches / scanned) * size)), estimated: true };
      // A term that looks rare so far gets the trigram index first; one seen often enough walks on.
      if (!triedTrigrams && (matches / scanned) * size < trigramFirstBelow) {
        triedTrigrams = true;
        const rare = await searchByTrigrams(table, base, matchesSearch, skip, take, trigramBudgetMs);
        if (rare) return rare;
      }
      if (window >= searchWalkLimit) return (await searchByTrigrams(table, base, matchesSearch, skip, take))!;
      // As far back as the page should need at the rate seen, at most 16 times further each round.
      window = Math.min(
        Math.ceil(((skip + take) * scanned * 1.5) / Math.max(matches, 1)),
        window * 16,
        searchWalkLimit,
      );
    }
  }

  async function list<Row extends { createdAt: Date; id: number }, R>(
    kind: 'access' | 'error',
    table: typeof accessLogs | typeof errorLogs,
    matches: (pattern: string) => SQL,
    input: LogListInput,
    extra: SQL[],
    toItem: (row: Row) => R,
  ) {
    const t = table as typeof accessLogs;
    const cursor = input.after ? decodeCursor(input.after) : null;
    const filters: SQL[] = [...extra];
    if (input.userId) filters.push(eq(t.userId, input.userId));
    if (input.machineNumber) filters.push(eq(t.machineNumber, input.machineNumber));
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
    const scopeSize = () =>
      extra.length === 0 && !input.userId && !input.machineNumber
        ? exactCount(kind, 'all', '')
        : extra.length === 0 && input.userId && !input.machineNumber
          ? exactCount(kind, 'user', input.userId)
          : extra.length === 0 && input.machineNumber && !input.userId
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
            .select()
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
            .select()
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
    listAccess(input: LogListInput) {
      const extra = input.recordId ? [eq(accessLogs.recordId, input.recordId)] : [];
      return list<typeof accessLogs.$inferSelect, AccessLog>(
        'access',
        accessLogs,
        (p) => accessLogMatches(accessLogs, p),
        input,
        extra,
        toAccessLog,
      );
    },
    listErrors(input: LogListInput) {
      // Error rows name no record; a recordId filter matches none of them.
      const extra = input.recordId ? [sql`false`] : [];
      return list<typeof errorLogs.$inferSelect, ErrorLog>(
        'error',
        errorLogs,
        (p) => errorLogMatches(errorLogs, p),
        input,
        extra,
        toErrorLog,
      );
    },
  };
}
export type LogsService = ReturnType<typeof createLogsService>;
