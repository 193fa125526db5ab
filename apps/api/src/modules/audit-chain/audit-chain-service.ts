import type { AuditChainBreak, AuditChainReport, AuditChainVerification } from '@app/contract/audit-chain';
import type { Db } from '#api/db/client.ts';
import {
  checkRange,
  firstUnchained,
  readHeads,
  rowAt,
  type ChainHead,
  type RangeResult,
} from './audit-chain-queries.ts';

/*
 * Verifies the audit trail's hash chains (decision 080): each log's rows from the head's starting
 * point to its newest place, in ranges of `rangeRows` places, `concurrency` ranges at a time (each
 * on a connection of its own on PostgreSQL; PGlite runs them one after another). Rows written
 * while it runs are past the head it read: the next verification checks them.
 */

type Options = {
  db: Db;
  now?: () => Date;
  /** Places per range query: small enough that one range's sort and hashes stay in memory. */
  rangeRows?: number;
  /** Range queries at a time: PostgreSQL runs each on its own connection (and core). */
  concurrency?: number;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What is wrong at place `seq` of a chain whose range check found its first broken link there. */
async function describeBreak(db: Db, head: ChainHead, seq: number): Promise<AuditChainBreak> {
  const row = await rowAt(db, head.log, seq, 'at');
  const before = await rowAt(db, head.log, seq, 'before');
  // The place before the first checked one is the starting point's, whether or not a row is there.
  const prevSeq = seq === head.startSeq ? seq - 1 : Math.max(before?.seq ?? 0, head.startSeq - 1);
  const gap = (to: number) =>
    to - prevSeq === 1 ? `place ${prevSeq + 1} holds no row` : `places ${prevSeq + 1} to ${to} hold no rows`;
  if (!row)
    return {
      chainSeq: seq,
      id: null,
      createdAt: null,
      problem: 'missing',
      detail: `The chain ends at place ${prevSeq} but its head says ${head.lastSeq}: ${gap(head.lastSeq)} (deleted).`,
    };
  const at = { chainSeq: seq, id: row.id, createdAt: row.createdAt };
  if (prevSeq !== seq - 1)
    return {
      ...at,
      problem: 'missing',
      detail: `Before row ${row.id} (place ${seq}), ${gap(seq - 1)} (deleted).`,
    };
  return {
    ...at,
    problem: 'altered',
    detail:
      `Row ${row.id} (place ${seq}) does not hash to its stored hash: it was changed after it was written, ` +
      `or the row before it was changed and its hash recomputed.`,
  };
}

export function createAuditChainService({
  db,
  now = () => new Date(),
  rangeRows = 250_000,
  concurrency = 1,
}: Options) {
  async function verifyChain(head: ChainHead): Promise<AuditChainReport> {
    const ranges: Array<{ from: number; to: number }> = [];
    for (let from = head.startSeq; from <= head.lastSeq; from += rangeRows)
      ranges.push({ from, to: Math.min(from + rangeRows - 1, head.lastSeq) });
    const results: RangeResult[] = new Array<RangeResult>(ranges.length);
    let next = 0;
    const worker = async () => {
      // Ranges are taken in chain order; a break found stops the ranges after it from starting.
      while (next < ranges.length) {
        const i = next++;
        if (results.slice(0, i).some((r) => r?.firstBroken != null)) return;
        const { from, to } = ranges[i]!;
        const start = i === 0 ? { seq: head.startSeq, hash: head.startHash } : null;
        results[i] = await checkRange(db, head.log, from, to, start);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, ranges.length) }, worker));

    let rowsChecked = 0;
    let firstBroken: number | null = null;
    let lastSeen: number | null = null;
    for (const r of results) {
      if (!r) continue;
      rowsChecked += r.checked;
      if (r.lastSeen !== null) lastSeen = Math.max(lastSeen ?? r.lastSeen, r.lastSeen);
      if (firstBroken === null && r.firstBroken !== null) firstBroken = r.firstBroken;
    }
    let firstBreak: AuditChainBreak | null = null;
    if (firstBroken !== null) firstBreak = await describeBreak(db, head, firstBroken);
    else if (head.lastSeq >= head.startSeq && (lastSeen ?? 0) < head.lastSeq)
      // The newest rows are gone: no range has a link to fail, only the head remembers them.
      firstBreak = await describeBreak(db, head, (lastSeen ?? head.startSeq - 1) + 1);
    else if (head.lastSeq >= head.startSeq) {
      const newest = await rowAt(db, head.log, head.lastSeq, 'at');
      if (newest && newest.hash !== head.lastHash)
        firstBreak = {
          chainSeq: newest.seq,
          id: newest.id,
          createdAt: newest.createdAt,
          problem: 'altered',
          detail: `The newest row ${newest.id} (place ${newest.seq}) is not the one the chain's head recorded: it was rewritten with its hash recomputed, or the head was changed.`,
        };
    }
    if (!firstBreak) {
      const stray = await firstUnchained(db, head.log, head.unchainedUpToId);
      if (stray)
        firstBreak = {
          chainSeq: null,
          id: stray.id,
          createdAt: stray.createdAt,
          problem: 'unchained',
          detail: `Row ${stray.id} was written after the chain began (${head.startedAt}) but has no place in it: it went in with the chain's trigger off.`,
        };
    }
    return {
      log: head.log,
      whole: firstBreak === null,
      rowsChecked,
      fromSeq: head.startSeq,
      toSeq: head.lastSeq,
      headHash: head.lastHash,
      startedAt: head.startedAt,
      firstBreak,
    };
  }

  async function run(): Promise<AuditChainVerification> {
    const started = Date.now();
    const checkedAt = now().toISOString();
    const chains: AuditChainReport[] = [];
    for (const head of await readHeads(db)) chains.push(await verifyChain(head));
    return {
      whole: chains.every((c) => c.whole),
      rowsChecked: chains.reduce((n, c) => n + c.rowsChecked, 0),
      chains,
      checkedAt,
      tookMs: Date.now() - started,
    };
  }

  // One verification at a time: a caller arriving while one runs gets its answer instead of
  // starting a second pass over the whole trail.
  let running: Promise<AuditChainVerification> | null = null;
  return {
    verify(): Promise<AuditChainVerification> {
      running ??= run().finally(() => (running = null));
      return running;
    },
  };
}
export type AuditChainService = ReturnType<typeof createAuditChainService>;

/** One line per chain, for the command line and the server's log. */
export function describeVerification(v: AuditChainVerification): string[] {
  return v.chains.map((c) => {
    const what = `The ${c.log} log's chain`;
    const range = c.toSeq >= c.fromSeq ? `places ${c.fromSeq} to ${c.toSeq}` : 'no rows yet';
    const checked = `${plural(c.rowsChecked, 'row')} checked (${range})`;
    if (!c.firstBreak) return `${what} is whole: ${checked}; head ${c.headHash}.`;
    return `${what} is BROKEN (${c.firstBreak.problem}): ${c.firstBreak.detail} ${checked}.`;
  });
}
