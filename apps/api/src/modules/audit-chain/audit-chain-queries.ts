import { sql, type SQL } from 'drizzle-orm';
import type { AuditChainLog } from '@app/contract/audit-chain';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';

/*
 * The verifier's queries (decision 080). Set-based: a range of the chain is read in chain order
 * from its unique index, and each row's hash is recomputed from its own columns (the migration's
 * canonical text function, the one the insert trigger uses) and the stored hash of the row before it
 * (lag), so every link is checked independently of the others and a range costs one pass.
 */

const tables: Record<AuditChainLog, { table: SQL; text: SQL }> = {
  access: { table: sql.raw('access_logs'), text: sql.raw('access_log_chain_text') },
  error: { table: sql.raw('error_logs'), text: sql.raw('error_log_chain_text') },
};

/** Bigints and timestamps as text: node-postgres and PGlite then answer alike. */
const num = (value: unknown): number => Number(value);
const dateOf = (ms: unknown): string | null => (ms == null ? null : new Date(Number(ms)).toISOString());

export type ChainHead = {
  log: AuditChainLog;
  lastSeq: number;
  lastHash: string;
  startSeq: number;
  startHash: string;
  startedAt: string;
  unchainedUpToId: number;
};

export async function readHeads(db: Db): Promise<ChainHead[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select log, last_seq::text as last_seq, encode(last_hash, 'hex') as last_hash, start_seq::text as start_seq,
        encode(start_hash, 'hex') as start_hash, (extract(epoch from started_at) * 1000)::bigint::text as started_ms,
        unchained_up_to_id::text as unchained_up_to_id
      from audit_chain_heads order by log`),
  );
  return rows.map((r) => ({
    log: r.log as AuditChainLog,
    lastSeq: num(r.last_seq),
    lastHash: String(r.last_hash),
    startSeq: num(r.start_seq),
    startHash: String(r.start_hash),
    startedAt: dateOf(r.started_ms)!,
    unchainedUpToId: num(r.unchained_up_to_id),
  }));
}

export type RangeResult = { checked: number; firstBroken: number | null; lastSeen: number | null };

/**
 * Checks the links of places `from` to `to`. The first range of a chain starts from the head's
 * starting point (`start`); a later one reads the row before it too, for its first link.
 */
export async function checkRange(
  db: Db,
  log: AuditChainLog,
  from: number,
  to: number,
  start: { seq: number; hash: string } | null,
): Promise<RangeResult> {
  const { table, text } = tables[log];
  const lo = start ? from : from - 1;
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select count(*) filter (where c.chain_seq >= ${from})::int as checked,
        min(c.chain_seq) filter (where c.broken)::text as first_broken, max(c.chain_seq)::text as last_seen
      from (
        select l.chain_seq, l.chain_seq >= ${from} and (
            coalesce(lag(l.chain_seq) over w, ${start ? start.seq - 1 : null}::bigint) is distinct from l.chain_seq - 1
            or l.chain_hash is distinct from
              sha256(coalesce(lag(l.chain_hash) over w, decode(${start?.hash ?? null}::text, 'hex')) || ${text}(l))
          ) as broken
        from ${table} l
        where l.chain_seq between ${lo} and ${to}
        window w as (order by l.chain_seq)
      ) c`),
  );
  return {
    checked: num(row?.checked ?? 0),
    firstBroken: row?.first_broken == null ? null : num(row.first_broken),
    lastSeen: row?.last_seen == null ? null : num(row.last_seen),
  };
}

export type ChainRow = { seq: number; id: number; createdAt: string; hash: string };

/** The row at a place, or the nearest one before it (`before`). */
export async function rowAt(
  db: Db,
  log: AuditChainLog,
  seq: number,
  which: 'at' | 'before',
): Promise<ChainRow | null> {
  const { table } = tables[log];
  const where = which === 'at' ? sql`l.chain_seq = ${seq}` : sql`l.chain_seq < ${seq}`;
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select l.chain_seq::text as seq, l.id::text as id, encode(l.chain_hash, 'hex') as hash,
        (extract(epoch from l.created_at) * 1000)::bigint::text as created_ms
      from ${table} l where ${where} order by l.chain_seq desc limit 1`),
  );
  return row
    ? { seq: num(row.seq), id: num(row.id), createdAt: dateOf(row.created_ms)!, hash: String(row.hash) }
    : null;
}

/** The first row written after the chain began that has no place in it (read from a partial index). */
export async function firstUnchained(
  db: Db,
  log: AuditChainLog,
  afterId: number,
): Promise<{ id: number; createdAt: string } | null> {
  const { table } = tables[log];
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select l.id::text as id, (extract(epoch from l.created_at) * 1000)::bigint::text as created_ms
      from ${table} l where l.chain_seq is null and l.id > ${afterId} order by l.id limit 1`),
  );
  return row ? { id: num(row.id), createdAt: dateOf(row.created_ms)! } : null;
}
