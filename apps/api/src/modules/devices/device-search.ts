import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';

/**
 * A search is counted exactly up to this many matches. Counting rechecks every match in the table
 * (a trigram index narrows, it does not decide), so a term matching a third of the fleet would cost
 * more than the whole page; past this the total is estimated (`totalIsEstimate: true`).
 */
export const deviceSearchExactCountLimit = 2000;

/** About this many machines are tested to tell a common term from a rare one. */
const sampleSize = 2000;

/**
 * The words of a search term as the trigram index sees them (runs of letters and digits), three
 * characters or more: shorter ones give only trigrams padded with spaces, which nearly every
 * machine has.
 */
export const searchWords = (term: string) => [
  ...new Set(term.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []),
];

/**
 * How many machines of `fleet` a filter matches, and how many contain each of `words`, judged from a
 * sample of the table's pages (TABLESAMPLE SYSTEM, about 200 pages at 1,000,000 machines, the same
 * pages every time so the total does not move between pages). The planner cannot say: its trigram
 * estimate was 100 rows for a term matching 33,333 of 1,000,000 (decision 078). A fleet no bigger
 * than the sample is tested whole.
 */
export async function sampledMatches(
  db: Db,
  where: SQL,
  fleet: number,
  words: string[] = [],
): Promise<{ matches: number; withWord: Map<string, number> }> {
  if (fleet === 0) return { matches: 0, withWord: new Map(words.map((w) => [w, 0])) };
  const percent = fleet <= sampleSize ? 100 : (sampleSize / fleet) * 100;
  const [row] = rowsOf<{ seen: number; hits: number; words: number[] | null }>(
    await db.execute(sql`
      select count(*)::int as seen, (count(*) filter (where ${where}))::int as hits,
        json_build_array(${sql.join(
          words.map((w) => sql`(count(*) filter (where strpos(${devices.searchText}, ${w}) > 0))::int`),
          sql`, `,
        )}) as words
      from ${devices} tablesample system (${sql.raw(percent.toFixed(6))}) repeatable (0)`),
  );
  const share = (n: number) => (!row || row.seen === 0 ? 0 : (n / row.seen) * fleet);
  return {
    matches: share(row?.hits ?? 0),
    withWord: new Map(words.map((w, i) => [w, share(row?.words?.[i] ?? 0)])),
  };
}

/**
 * A search that the sample says is rare, in one pass over the trigram index: at most one more than
 * the exact limit of the matches, each with its sort key; their count and, when they are all of
 * them, the ids of the asked page in the list's order. `order` sorts the matches (`k`, then `id`).
 */
export async function rareMatches(
  db: Db,
  { where, key, order, skip, take }: { where: SQL; key: SQL; order: SQL; skip: number; take: number },
): Promise<{ count: number; ids: string[] }> {
  const [row] = rowsOf<{ n: number; ids: string[] | null }>(
    await db.execute(sql`
      with m as (
        select ${devices.id} as id, ${key} as k from ${devices} where ${where}
        limit ${deviceSearchExactCountLimit + 1})
      select (select count(*)::int from m) as n,
        (select json_agg(id order by ${order}) from (select id, k from m order by ${order} offset ${skip} limit ${take}) p) as ids`),
  );
  return { count: row?.n ?? 0, ids: row?.ids ?? [] };
}
