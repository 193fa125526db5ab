import { sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { patients } from '#api/db/schema/devices.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { createRetention } from './retention-service.ts';

/*
 * For the retention tests: rows written at chosen times before the test clock, and a run on the test
 * app's database and clock with its settings.
 */

export const day = 86_400_000;

/** `years` calendar years and `days` days before `at`. */
export function before(at: Date, years: number, days = 0): Date {
  const out = new Date(at);
  out.setUTCFullYear(out.getUTCFullYear() - years);
  return new Date(out.getTime() - days * day);
}

export async function aPatient(db: Db, deviceId: string, createTime: Date): Promise<string> {
  const [row] = await db
    .insert(patients)
    .values({ deviceId, patientname: 'Retention Patient', email: 'patient@example.com', createTime })
    .returning({ id: patients.id });
  return row!.id;
}

export async function aTreatment(db: Db, deviceId: string, treatedAt: Date, patientId?: string) {
  const [row] = await db
    .insert(treatmentRecords)
    .values({
      deviceId,
      patientId: patientId ?? null,
      userName: 'Retention Patient',
      treatmentDevice: 'Laser',
      treatmentPlan: 'Plan A',
      treatmentStartTime: treatedAt,
      createdAt: treatedAt,
    })
    .returning({ id: treatmentRecords.id });
  return row!.id;
}

export const idsIn = async (db: Db, table: 'treatment_records' | 'patients', ids: string[]) =>
  new Set(
    rowsOf<{ id: string }>(
      await db.execute(
        sql`select id::text as id from ${sql.raw(table)} where id::text = any(${`{${ids.join(',')}}`}::text[])`,
      ),
    ).map((r) => r.id),
  );

export const retentionOf = (t: TestApp, batchSize?: number) =>
  createRetention({
    db: t.database.db,
    now: () => t.clock.now,
    log: { info: () => {} },
    config: t.config.retention,
    housekeeping: t.config.housekeeping,
    mailMaxAttempts: t.config.mailMaxAttempts,
    batchSize,
  });
