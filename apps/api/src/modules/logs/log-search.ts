import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import type { accessLogs } from '#api/db/schema/logs.ts';
import { pgErrorCode } from '#api/lib/pagination.ts';

/** How many of the newest rows a search reads first (see searchPage). */
const searchWindow = 2_000;
/** The time a search may spend in the trigram index before it counts as common (see searchPage). */
const trigramBudgetMs = 250;
/** Below this many expected matches (the newest rows' rate times the list size) the trigram index is tried first. */
const trigramFirstBelow = 20_000;
/** How far back a common term's walk through the time index may go before the trigram index takes over. */
const searchWalkLimit = 1_000_000;

/** The Admin Logs' search: which rows of a list match, and how many (see searchPage). */
export function createLogSearch(db: Db) {
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

  return searchPage;
}
