import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';

/*
 * For the chain's tests: what an attacker with the tables' owner (the tests' superuser) can do,
 * past the append-only trigger (decision 013), and what the chain must then show.
 */

export type LogTable = 'access_logs' | 'error_logs';

export const rowsFrom = async <T = Record<string, unknown>>(db: Db, query: SQL) =>
  rowsOf<T>(await db.execute(query));

/** Runs `statement` with the append-only trigger of `table` off, as decision 013 says retention would. */
export async function tamper(db: Db, table: LogTable, statement: SQL, trigger = `${table}_append_only`) {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`));
    await tx.execute(statement);
    await tx.execute(sql.raw(`alter table ${table} enable trigger ${trigger}`));
  });
}

/** The row at a place of the chain: its id (as a number). */
export async function idAt(db: Db, table: LogTable, seq: number): Promise<number> {
  const [row] = await rowsFrom<{ id: string }>(
    db,
    sql`select id::text as id from ${sql.raw(table)} where chain_seq = ${seq}`,
  );
  return Number(row!.id);
}

/** A log's newest place, as its head says. */
export async function headSeq(db: Db, log: 'access' | 'error'): Promise<number> {
  const [row] = await rowsFrom<{ n: string }>(
    db,
    sql`select last_seq::text as n from audit_chain_heads where log = ${log}`,
  );
  return Number(row!.n);
}

/** `n` access rows and `n / 10` error rows in a few multi-row statements. */
export async function fillLogs(db: Db, n: number, tag = 'fill') {
  await db.execute(sql`
    insert into access_logs (resource, user_email, status_code, duration_ms, changed_fields)
    select 'GET /api/v1/admin/${sql.raw(tag)}/' || g, 'user' || g || '@example.com', 200, g % 90, array['a', 'b c']
    from generate_series(1, ${n}) g`);
  await db.execute(sql`
    insert into error_logs (resource, function_name, message, status_code)
    select 'POST /api/v1/admin/${sql.raw(tag)}', 'handler' || g, 'Failed: "' || g || '"', 500
    from generate_series(1, ${Math.ceil(n / 10)}) g`);
}
