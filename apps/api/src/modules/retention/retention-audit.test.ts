import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { legalHolds } from '#api/db/schema/retention.ts';
import { addDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { createAuditChainService } from '../audit-chain/audit-chain-service.ts';
import { fillLogs } from '../audit-chain/audit-chain-test-helpers.ts';
import { createRetention } from './retention-service.ts';
import { day, retentionOf } from './retention-test-helpers.ts';

/*
 * The audit trail's retention (decision 086): access and error logs past LOG_RETENTION_DAYS go and
 * the chain's start moves past them, so the verifier (and `npm run audit:verify`) finds it whole; a
 * held machine's rows stop the cut; change history goes by the same period, a patient's only with
 * the patient; each run's counts are in the audit trail.
 */

const period = 2_192 * day;
const iso = (d: Date) => d.toISOString();

async function accessRow(db: Db, createdAt: Date, tag: string, machine: string | null = null) {
  await db.execute(sql`insert into access_logs (created_at, resource, machine_number, status_code)
    values (${iso(createdAt)}::timestamptz, ${`GET /retention/${tag}`}, ${machine}, 200)`);
}
const count = async (db: Db, query: ReturnType<typeof sql>) =>
  Number(rowsOf<{ n: string }>(await db.execute(query))[0]!.n);
const tagged = (db: Db, tag: string) =>
  count(db, sql`select count(*)::text as n from access_logs where resource like ${`GET /retention/${tag}%`}`);
const due = (db: Db, cutoff: Date) =>
  count(
    db,
    sql`select ((select count(*) from access_logs where created_at < ${iso(cutoff)}::timestamptz)
      + (select count(*) from error_logs where created_at < ${iso(cutoff)}::timestamptz))::text as n`,
  );
const whole = async (db: Db) => {
  const verification = await createAuditChainService({ db, rangeRows: 50 }).verify();
  expect(verification.whole, JSON.stringify(verification.chains)).toBe(true);
  return verification;
};

describe('the audit trail past its period', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('removes the logs a day past the period, moves the chain’s start, keeps those a day inside, records the counts', async () => {
    const db = t.database.db;
    const t0 = t.clock.now;
    const { deviceId } = await addDevice(t);
    for (let i = 0; i < 7; i++) await accessRow(db, t0, `past-${i}`);
    await db.execute(sql`insert into error_logs (created_at, resource, function_name, status_code)
      values (${iso(t0)}::timestamptz, 'GET /retention', 'f', 500)`);
    await t.app.audit.flush();
    await accessRow(db, new Date(t0.getTime() + 2 * day), 'inside');
    // Change history: a machine's change past the period goes, one inside stays, and a patient's
    // stays: it goes with the patient.
    await db.execute(sql`insert into record_history (changed_at, record_kind, record_id, field, new_value) values
      (${iso(t0)}::timestamptz, 'device', ${deviceId}, 'location', '"A"'::jsonb),
      (${iso(new Date(t0.getTime() + 2 * day))}::timestamptz, 'device', ${deviceId}, 'location', '"B"'::jsonb),
      (${iso(t0)}::timestamptz, 'patient', ${deviceId}, 'email', '"x"'::jsonb)`);

    t.clock.advance(period + day);
    const cutoff = new Date(t.clock.now.getTime() - period);
    const logsDue = await due(db, cutoff);
    const historyDue = await count(
      db,
      sql`select count(*)::text as n from record_history where changed_at < ${iso(cutoff)}::timestamptz and record_kind <> 'patient'`,
    );
    expect(logsDue).toBeGreaterThanOrEqual(8);
    const removed = await retentionOf(t).run();

    expect(removed).toMatchObject({ logs: logsDue, auditTrail: historyDue });
    expect(await tagged(db, 'past-')).toBe(0);
    expect(await tagged(db, 'inside')).toBe(1);
    expect(await due(db, cutoff)).toBe(0);
    const history = rowsOf<{ kind: string; v: string }>(
      await db.execute(
        sql`select record_kind as kind, new_value #>> '{}' as v from record_history where record_id = ${deviceId} and field in ('location', 'email') order by kind, v`,
      ),
    );
    expect(history).toEqual([
      { kind: 'device', v: 'B' },
      { kind: 'patient', v: 'x' },
    ]);
    const verification = await whole(db);
    expect(verification.chains.find((c) => c.log === 'access')!.fromSeq).toBeGreaterThan(1);

    // The run's counts per record type, in the audit trail.
    const [run] = rowsOf<{ fields: string[] }>(
      await db.execute(
        sql`select changed_fields as fields from access_logs where record_kind = 'retention-run' order by id desc limit 1`,
      ),
    );
    expect(run!.fields).toEqual(
      expect.arrayContaining([`logs=${logsDue}`, `auditTrail=${historyDue}`, 'treatmentRecords=0']),
    );
    expect((await retentionOf(t).run()).logs).toBe(0);
  });

  it('stops at the first row of a held machine until the hold is lifted, the chain whole each time', async () => {
    const db = t.database.db;
    const t1 = t.clock.now;
    await accessRow(db, t1, 'before-held');
    // Adding the machine writes rows naming it: the first of them is where the cut stops.
    const { deviceId, machineNumber } = await addDevice(t);
    await t.app.audit.flush();
    await accessRow(db, t1, 'held', machineNumber);
    await accessRow(db, t1, 'after-held');
    const [hold] = await db
      .insert(legalHolds)
      .values({
        subjectKind: 'device',
        subjectId: deviceId,
        subjectLabel: `Machine ${machineNumber}`,
        reason: 'Claim 14',
        placedAt: t1,
        placedByEmail: 'admin@example.com',
      })
      .returning({ id: legalHolds.id });
    t.clock.advance(period + day);

    await retentionOf(t).run();
    expect([
      await tagged(db, 'before-held'),
      await tagged(db, 'held'),
      await tagged(db, 'after-held'),
    ]).toEqual([0, 1, 1]);
    await whole(db);

    await db.execute(sql`update legal_holds set lifted_at = now(), lifted_by_email = 'admin@example.com',
      lift_reason = 'Settled' where id = ${hold!.id}`);
    await retentionOf(t).run();
    expect([await tagged(db, 'held'), await tagged(db, 'after-held')]).toEqual([0, 0]);
    await whole(db);
  });

  it('two runs at once remove each log row once, the chain whole', async () => {
    const db = t.database.db;
    await t.app.audit.flush();
    for (let i = 0; i < 30; i++) await accessRow(db, t.clock.now, `twice-${i}`);
    t.clock.advance(period + day);
    const cutoff = new Date(t.clock.now.getTime() - period);
    const logsDue = await due(db, cutoff);
    const [a, b] = await Promise.all([retentionOf(t, 7).run(), retentionOf(t, 7).run()]);
    expect(a.logs + b.logs).toBe(logsDue);
    expect(await tagged(db, 'twice-')).toBe(0);
    await whole(db);
  });

  it('a run stopped after moving the start leaves the chain whole; the next run removes what it left', async () => {
    const db = t.database.db;
    await t.app.audit.flush();
    for (let i = 0; i < 12; i++) await accessRow(db, t.clock.now, `stopped-${i}`);
    t.clock.advance(period + day);
    const cutoff = new Date(t.clock.now.getTime() - period);
    // The first step alone, under the chain's lock: the rows leave the chain but are still there.
    const [moved] = rowsOf<{ n: string }>(
      await db.execute(sql`select audit_retention_advance('access', ${iso(cutoff)}::timestamptz,
        '{}'::text[], '{}'::text[], 1000)::text as n`),
    );
    expect(Number(moved!.n)).toBeGreaterThanOrEqual(12);
    expect(await tagged(db, 'stopped-')).toBe(12);
    await whole(db);
    const logsDue = await due(db, cutoff);
    expect((await retentionOf(t, 5).run()).logs).toBe(logsDue);
    expect(await tagged(db, 'stopped-')).toBe(0);
    await whole(db);
  });
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const auditVerify = (env: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/api/src/modules/audit-chain/audit-verify-cli.ts'],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', ...env },
      },
    );
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

describe('npm run audit:verify after a retention run', () => {
  it('exits 0: the chain starts where the run left it', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'retention-verify-'));
    try {
      const database = await openDatabase({ dataDir });
      await fillLogs(database.db, 300);
      const later = new Date(Date.now() + period + 2 * day);
      for (let i = 0; i < 20; i++) await accessRow(database.db, later, `kept-${i}`);
      const removed = await createRetention({
        db: database.db,
        now: () => later,
        log: { info: () => {} },
        config: { everySeconds: 0, healthYears: 10, healthCountryYears: [], logDays: 2_192 },
        housekeeping: { mailRetentionDays: 30, paymentEventRetentionDays: 30 },
        mailMaxAttempts: 8,
      }).run();
      expect(removed.logs).toBe(330);
      await database.close();
      const verified = await auditVerify({ DATA_DIR: dataDir });
      expect(verified.status, verified.stdout + verified.stderr).toBe(0);
      expect(verified.stdout).toContain(
        "The access log's chain is whole: 21 rows checked (places 301 to 321)",
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
