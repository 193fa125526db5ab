import { desc, sql } from 'drizzle-orm';
import type { RetentionRun, RetentionRunList } from '@app/contract/retention';
import { retentionRecordTypes, type RetentionRecordType } from '@app/contract/retention-texts';
import type { HousekeepingConfig } from '#api/config-housekeeping.ts';
import type { RetentionConfig } from '#api/config-retention.ts';
import type { Db } from '#api/db/client.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { retentionRuns } from '#api/db/schema/retention.ts';
import { createHousekeeping } from '../housekeeping/housekeeping-service.ts';
import { createAuditRetention } from './audit-retention.ts';
import { createHealthRetention } from './health-retention.ts';
import { healthCutoffs, logCutoff } from './retention-schedule.ts';

type Log = { info: (fields: object, message: string) => void };
export type RetentionCounts = Record<RetentionRecordType, number>;

/** Rows per batch: each batch one short transaction, however large the backlog (decision 072). */
const defaultBatchSize = 5_000;

/**
 * The retention run (decision 086): every record type of the schedule past its period is removed,
 * except what a legal hold keeps; then the run and its counts per record type are stored and written
 * to the audit trail in one transaction. The short-lived kinds are housekeeping's own pass (decision
 * 072), the same remover; health data, logs and change history are this module's.
 */
export function createRetention({
  db,
  now,
  log,
  config,
  housekeeping: housekeepingConfig,
  mailMaxAttempts,
  batchSize = defaultBatchSize,
}: {
  db: Db;
  now: () => Date;
  log: Log;
  config: RetentionConfig;
  housekeeping: Pick<HousekeepingConfig, 'mailRetentionDays' | 'paymentEventRetentionDays'>;
  mailMaxAttempts: number;
  batchSize?: number;
}) {
  const housekeeping = createHousekeeping({
    db,
    now,
    log,
    config: housekeepingConfig,
    mailMaxAttempts,
    batchSize,
  });
  const health = createHealthRetention({ db, batchSize });
  const audit = createAuditRetention({ db, batchSize });

  async function run(): Promise<RetentionCounts> {
    const startedAt = now();
    const cutoffs = healthCutoffs(startedAt, config);
    const logsBefore = logCutoff(startedAt, config);
    // Treatments before patients: a patient goes once none of their treatments is left.
    const treatmentRecords = await health.removeTreatments(cutoffs);
    const patientData = await health.removePatients(cutoffs);
    const logs = logsBefore ? await audit.removeLogs(logsBefore) : 0;
    const auditTrail = logsBefore ? await audit.removeHistory(logsBefore) : 0;
    const kept = await housekeeping.run();
    const removed: RetentionCounts = {
      treatmentRecords,
      patientData,
      logs,
      auditTrail,
      mail: kept.mail,
      sessions: kept.sessions + kept.appSessions,
      enrolmentCodes: kept.enrolmentCodes,
      passwordResets: kept.passwordResets,
      paymentEvents: kept.paymentEvents,
    };
    await record(startedAt, removed);
    if (Object.values(removed).some((n) => n > 0))
      log.info({ removed }, 'retention removed rows past their period');
    return removed;
  }

  /** The run's row and its audit row, together: the counts by type, by name, never a removed value. */
  async function record(startedAt: Date, removed: RetentionCounts) {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(retentionRuns)
        .values({ startedAt, finishedAt: now(), removed })
        .returning({ id: retentionRuns.id });
      const counts = retentionRecordTypes.map((type) => `${type}=${removed[type]}`);
      await tx.insert(accessLogs).values({
        createdAt: now(),
        resource:
          `RETENTION run: ${retentionRecordTypes.map((type) => `${type} ${removed[type]}`).join(', ')}`.slice(
            0,
            500,
          ),
        recordKind: 'retention-run',
        recordId: row!.id,
        changedFields: counts,
        statusCode: null,
        durationMs: null,
      });
    });
  }

  async function runs({ page, limit }: { page: number; limit: number }): Promise<RetentionRunList> {
    const rows = await db
      .select()
      .from(retentionRuns)
      .orderBy(desc(retentionRuns.startedAt), desc(retentionRuns.id))
      .limit(limit)
      .offset((page - 1) * limit);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(retentionRuns);
    const total = count?.n ?? 0;
    const toRun = (r: (typeof rows)[number]): RetentionRun => ({
      _id: r.id,
      startedAt: r.startedAt.toISOString(),
      finishedAt: r.finishedAt.toISOString(),
      removed: r.removed,
    });
    return { runs: rows.map(toRun), total, totalPages: Math.max(1, Math.ceil(total / limit)), page, limit };
  }

  return { run, runs };
}
export type Retention = ReturnType<typeof createRetention>;
