import { and, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { accessLogs, logCounters } from '#api/db/schema/logs.ts';
import { containsPattern } from '#api/lib/pagination.ts';

/*
 * The access-log search through the dictionary (decision 007). A log matches when one of its
 * fields (resource, email, address, machine number) contains the term. Those fields have few
 * distinct values next to the rows (routes, console users and device apps, their addresses,
 * machines), and log_counters holds each value with its row count. So the counters say exactly
 * which values a term names and how many rows each has: the page is a merge of those values'
 * index ranges (newest first) and the total is exact, however large the table and however rare or
 * common the term. Terms naming many values, and searches with other filters, go the general way
 * (searchPage in logs-service.ts).
 */

const columns = {
  email: accessLogs.userEmail,
  resource: accessLogs.resource,
  address: accessLogs.location,
  machine: accessLogs.machineNumber,
} as const;
type Scope = keyof typeof columns;
const scopes = Object.keys(columns) as Scope[];

/** Past this many named values a merge of index ranges stops paying; the general search takes over. */
const maxValues = 32;

export type DictionaryPage = { ids: number[]; total: number; estimated: boolean };

/**
 * The page of access-log ids a search term names, or null when the dictionary cannot answer it.
 * `after` continues below a cursor row; `skip` rows are passed over first (page without cursor).
 */
export async function searchAccessByDictionary(
  db: Db,
  term: string,
  after: SQL | undefined,
  skip: number,
  take: number,
): Promise<DictionaryPage | null> {
  // The trigram index over the keys finds the values; the kind and scope filter what it found.
  // (Asked directly, the planner walks the primary key and tests every key of the scope.)
  const found = await db.execute(sql`
    with named as materialized (
      select ${logCounters.logKind} as kind, ${logCounters.scope} as scope, ${logCounters.key} as key, ${logCounters.n} as n
      from ${logCounters} where ${ilike(logCounters.key, containsPattern(term))}
    )
    select scope, key, n from named
    where kind = 'access' and scope in (${sql.join(
      scopes.map((s) => sql`${s}`),
      sql`, `,
    )}) and n > 0
    limit ${maxValues + 1}`);
  const named = rowsOf<{ scope: Scope; key: string; n: string | number }>(found);
  if (named.length > maxValues) return null;
  if (named.length === 0) return { ids: [], total: 0, estimated: false };

  const need = skip + take;
  const ranges = named.map(
    ({ scope, key }) => sql`(
      select ${accessLogs.id} as id, ${accessLogs.createdAt} as created_at from ${accessLogs}
      where ${and(eq(columns[scope], key), after)}
      order by ${accessLogs.createdAt} desc nulls last, ${accessLogs.id} desc nulls last
      limit ${need})`,
  );
  // UNION, not UNION ALL: a row can be named twice (its email and its route both match).
  const result = await db.execute(sql`
    select id from (${sql.join(ranges, sql` union `)}) named
    order by created_at desc, id desc offset ${skip} limit ${take}`);
  const rows = rowsOf<{ id: string | number }>(result);
  const total = named.reduce((sum, v) => sum + Number(v.n), 0);
  // Values of one column never share a row, so their counts add up exactly; across columns a row
  // can be counted twice, and the sum is an upper bound.
  const estimated = new Set(named.map((v) => v.scope)).size > 1;
  return { ids: rows.map((r) => Number(r.id)), total, estimated };
}
