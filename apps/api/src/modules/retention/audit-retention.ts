import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { pgArray } from './pg-array.ts';

/*
 * The audit trail past its period (decision 086), through the one explicit path migrations 0053 and
 * 0058 give the retention job: access and error logs by audit_retention_advance, which moves each hash
 * chain's start past due rows (decision 080), so the chain verifies whole after a run, and
 * audit_retention_remove, which deletes the rows outside the chain; and the change
 * history (record_history) by record_history_retention_remove. Nothing of a held machine or patient.
 */

type Held = { machines: string[]; records: string[]; history: string[] };

/** What the legal holds in force keep, as the two functions take it. */
async function heldSubjects(db: Db): Promise<Held> {
  const holds = rowsOf<{ kind: 'patient' | 'device'; id: string }>(
    await db.execute(
      sql`select subject_kind as kind, subject_id::text as id from legal_holds where lifted_at is null`,
    ),
  );
  const deviceIds = holds.filter((h) => h.kind === 'device').map((h) => h.id);
  const patientIds = holds.filter((h) => h.kind === 'patient').map((h) => h.id);
  const onDevices = deviceIds.length
    ? rowsOf<{ key: string; machine: string | null }>(
        await db.execute(sql`
          select 'device:' || d.id as key, d.machine_number as machine from devices d where d.id = any(${pgArray(deviceIds, 'uuid[]')})
          union all select 'doctor:' || o.id, null from doctors o where o.device_id = any(${pgArray(deviceIds, 'uuid[]')})`),
      )
    : [];
  return {
    machines: onDevices.flatMap((r) => (r.machine ? [r.machine] : [])),
    records: patientIds,
    history: onDevices.map((r) => r.key),
  };
}

const scalar = async (db: Db, query: ReturnType<typeof sql>) =>
  Number(Object.values(rowsOf<Record<string, unknown>>(await db.execute(query))[0] ?? { n: 0 })[0] ?? 0);

/**
 * After each batch the run rests three times as long as the batch took (at most 3 s): it keeps a
 * quarter of a core and of the disk busy, so the machines' log ingest and the console keep the rest
 * while a month's rows go. Resting as long as the batch (half busy) still slowed the device list's
 * and heartbeats' p95 by 21 % on 2 cores (bench:retention at 10 M rows: the run took 37 s of the 2
 * minutes it has).
 */
const restAfter = (startedAt: number) => sleep(Math.min(3_000, 3 * (performance.now() - startedAt)));

export function createAuditRetention({ db, batchSize }: { db: Db; batchSize: number }) {
  /**
   * Per log: moves the chain's start past due rows (a short transaction under the chain's lock), then
   * deletes what is now outside the chain without that lock, each call one statement and at most one
   * batch; repeated until neither has anything left.
   */
  async function removeLogs(cutoff: Date): Promise<number> {
    const held = await heldSubjects(db);
    const before = cutoff.toISOString();
    let removed = 0;
    for (const chain of ['access', 'error'] as const) {
      let fromSeq = 0;
      for (;;) {
        const startedAt = performance.now();
        const moved = await scalar(
          db,
          sql`select audit_retention_advance(${chain}, ${before}::timestamptz,
            ${pgArray(held.machines)}, ${pgArray(held.records)}, ${batchSize}) as n`,
        );
        const [batch] = rowsOf<{ removed: string; next_seq: string }>(
          await db.execute(sql`select removed::text, next_seq::text from audit_retention_remove(${chain},
            ${before}::timestamptz, ${pgArray(held.machines)}, ${pgArray(held.records)}, ${fromSeq}, ${batchSize})`),
        );
        const n = Number(batch?.removed ?? 0);
        fromSeq = Number(batch?.next_seq ?? fromSeq);
        removed += n;
        if (moved === 0 && n === 0) break;
        await restAfter(startedAt);
      }
    }
    return removed;
  }

  /** Change history past the period; a patient's goes with the patient (health data), not here. */
  async function removeHistory(cutoff: Date): Promise<number> {
    const held = await heldSubjects(db);
    let removed = 0;
    for (;;) {
      const startedAt = performance.now();
      const n = await scalar(
        db,
        sql`select record_history_retention_remove(null, null, ${cutoff.toISOString()}::timestamptz,
          ${pgArray(held.history)}, ${pgArray(['patient'])}, ${batchSize}) as n`,
      );
      removed += n;
      if (n < batchSize) return removed;
      await restAfter(startedAt);
    }
  }

  return { removeLogs, removeHistory };
}
