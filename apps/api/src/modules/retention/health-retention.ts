import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { pgArray } from './pg-array.ts';

/*
 * Health data past its period (decision 086): treatment records, then patients none of whose
 * treatments is left, each by the period of the country of the machine the record came from, never
 * what a legal hold in force keeps (on the patient, or on the machine: all its patients and records).
 * In batches, each one short transaction whose rows are locked SKIP LOCKED, as housekeeping does
 * (decision 072): two instances running at once take different rows, and each row goes once.
 */

export type Cutoffs = { fallback: Date; byCountry: ReadonlyMap<string, Date> };

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The cut-off of the machine's country (`country` a lower-cased column expression). */
function cutoffOf(country: SQL, cutoffs: Cutoffs): SQL {
  if (cutoffs.byCountry.size === 0) return at(cutoffs.fallback);
  const whens = [...cutoffs.byCountry].map(([name, cut]) => sql`when ${name} then ${at(cut)}`);
  return sql`(case ${country} ${sql.join(whens, sql` `)} else ${at(cutoffs.fallback)} end)`;
}

/** The latest of the cut-offs: nothing after it is due anywhere (the index bounds the scan). */
const latest = (cutoffs: Cutoffs) =>
  new Date(Math.max(cutoffs.fallback.getTime(), ...[...cutoffs.byCountry.values()].map((d) => d.getTime())));

const heldBy = (kind: 'patient' | 'device', id: SQL) =>
  sql`exists (select 1 from legal_holds h where h.lifted_at is null and h.subject_kind = ${kind} and h.subject_id = ${id})`;

async function inBatches(db: Db, batch: (tx: Db) => Promise<number>, batchSize: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await db.transaction((tx) => batch(tx as unknown as Db));
    removed += n;
    if (n < batchSize) return removed;
    await nextTurn();
  }
}

export function createHealthRetention({ db, batchSize }: { db: Db; batchSize: number }) {
  /** Treatment records (their images go with them, by cascade) treated before their country's cut-off. */
  const removeTreatments = (cutoffs: Cutoffs) =>
    inBatches(
      db,
      async (tx) => {
        const due = rowsOf<{ id: string }>(
          await tx.execute(sql`
            select t.id from treatment_records t join devices d on d.id = t.device_id
            where t.treated_at < ${at(latest(cutoffs))}
              and t.treated_at < ${cutoffOf(sql`lower(d.country)`, cutoffs)}
              and not ${heldBy('device', sql`t.device_id`)}
              and (t.patient_id is null or not ${heldBy('patient', sql`t.patient_id`)})
            order by t.treated_at, t.id
            limit ${batchSize}
            for update of t skip locked`),
        );
        if (due.length === 0) return 0;
        await tx.execute(
          sql`delete from treatment_records where id = any(${pgArray(
            due.map((r) => r.id),
            'uuid[]',
          )})`,
        );
        return due.length;
      },
      batchSize,
    );

  /**
   * Patients recorded before their country's cut-off with no treatment left (those still kept keep
   * their patient), and their change history with them: it holds the old values of what is gone.
   */
  const removePatients = (cutoffs: Cutoffs) =>
    inBatches(
      db,
      async (tx) => {
        const due = rowsOf<{ id: string }>(
          await tx.execute(sql`
            select p.id from patients p join devices d on d.id = p.device_id
            where coalesce(p.create_time, p.received_at, '-infinity') < ${at(latest(cutoffs))}
              and coalesce(p.create_time, p.received_at, '-infinity') < ${cutoffOf(sql`lower(d.country)`, cutoffs)}
              and not exists (select 1 from treatment_records t where t.patient_id = p.id)
              and not ${heldBy('device', sql`p.device_id`)}
              and not ${heldBy('patient', sql`p.id`)}
            order by p.create_time, p.id
            limit ${batchSize}
            for update of p skip locked`),
        );
        if (due.length === 0) return 0;
        const ids = due.map((r) => r.id);
        await tx.execute(sql`delete from patients where id = any(${pgArray(ids, 'uuid[]')})`);
        await tx.execute(
          sql`select record_history_retention_remove('patient', ${pgArray(ids)}, null, null, null, null)`,
        );
        return ids.length;
      },
      batchSize,
    );

  return { removeTreatments, removePatients };
}
