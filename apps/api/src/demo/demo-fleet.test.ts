import { mkdtempSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gt, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { commandMessages, commandPaths } from '@app/contract/commands';
import { apiPaths } from '@app/contract/paths';
import type { AlarmList } from '@app/contract/alarms';
import { deviceCredentials } from '../db/schema/device-api.ts';
import { devices } from '../db/schema/devices.ts';
import { treatmentRecords } from '../db/schema/treatments.ts';
import { errorLogs } from '../db/schema/logs.ts';
import { loadConfig } from '../config.ts';
import { createEnrolmentService } from '../modules/device-api/enrolment-service.ts';
import { createStorage } from '../lib/storage/create-storage.ts';
import { inCohort } from '../modules/app-updates/rollout-cohort.ts';
import { adminToken } from '../test/device-fixtures.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { castFile, readCast } from './demo-fleet-cast.ts';
import { startDemoFleet, type DemoFleet, type DemoFleetPace } from './demo-fleet.ts';
import { seedDemoData } from './seed-demo.ts';

/*
 * The built-in demo fleet (issue 35 item 1): the demo data's machines, driven by the fleet
 * simulator's machine code over real HTTP against the app listening on a port, at a pace sped up
 * from minutes to milliseconds. They enrol, check in, treat, sync; one stays silent, one crashes in
 * bursts, one keeps calling after its revocation, one runs an old release: every alarm kind opens.
 * A restart keeps each machine's credential (nothing is enrolled again), and a safety hold an admin
 * put on a machine.
 */

const fast: DemoFleetPace = {
  heartbeatMs: 2_000,
  recordMs: 2_000,
  flakyPeriodMs: 3_000,
  burstEveryMs: 60_000,
  burstSize: 60,
  updateCheckMs: 1_500,
  tickMs: 40,
};

let t: TestApp;
let url: string;
let dataDir: string;
let fleet: DemoFleet | null = null;
/** The release each demo machine ran as seeded (versionCode), before the fleet checked for updates. */
let seeded: Map<string, number | null>;
const db = () => t.database.db;
/** How many rows of `table` (that match `where`). */
const rowsIn = async (table: PgTable, where?: SQL) =>
  (
    (await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(where)) as { n: number }[]
  )[0]!.n;

const start = () =>
  startDemoFleet({
    db: db(),
    baseUrl: url,
    issuer: t.config.publicUrl,
    enrolment: createEnrolmentService({ db: db(), secret: t.config.jwtSecret, now: () => t.clock.now }),
    castFile: castFile(dataDir),
    pace: fast,
    log: { warn: (msg) => console.warn(msg), error: (fields, msg) => console.error(msg, fields) },
  });

beforeAll(async () => {
  // Alarms: an error burst is more than 50 errors in an hour; releases below 1.2.0 (30) are unsupported.
  // The pace is sped up a thousandfold: so is what one machine may call.
  t = await createTestApp({ MIN_SUPPORTED_APP_VERSION_CODE: '30', DEVICE_RATE_PER_MINUTE: '100000' });
  // With the file storage, so the demo's app updates (and their staged rollout) are seeded too.
  await seedDemoData(db(), { now: t.clock.now, storage: createStorage(t.config) });
  const rows = await db().select({ id: devices.id, code: devices.appVersionCode }).from(devices);
  seeded = new Map(rows.map((r) => [r.id, r.code]));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'demo-fleet-'));
}, 120_000);
afterAll(async () => {
  await fleet?.stop();
  await t?.close();
});

const liveCredentials = () => rowsIn(deviceCredentials, isNull(deviceCredentials.revokedAt));

describe('the demo fleet', () => {
  it('enrols the demo machines and keeps them calling: check-ins, treatments, an error burst, a revoked caller', async () => {
    const treatmentsBefore = await rowsIn(treatmentRecords);
    fleet = await start();
    const cast = readCast(castFile(dataDir))!;
    expect(fleet.machines).toBe(cast.length);
    expect(cast.length).toBeGreaterThan(40);
    // The credentials file is the machines' secrets: this user's alone.
    expect(statSync(castFile(dataDir)).mode & 0o077).toBe(0);
    const byRole = (role: string) => cast.filter((m) => m.role === role);
    expect(byRole('silent')).toHaveLength(1);
    expect(byRole('crashing')).toHaveLength(1);
    expect(byRole('revoked')).toHaveLength(1);
    expect(byRole('flaky')).toHaveLength(2);

    // Every machine of the cast is enrolled; all but the revoked one hold a live credential.
    await expect.poll(liveCredentials, { timeout: 30_000 }).toBe(cast.length - 1);
    // New treatments arrive through the device API, from the demo's own doctors.
    await expect
      .poll(() => rowsIn(treatmentRecords), {
        timeout: 30_000,
      })
      .toBeGreaterThan(treatmentsBefore + 20);
    const crashing = byRole('crashing')[0]!;
    await expect
      .poll(() => rowsIn(errorLogs, eq(errorLogs.machineNumber, crashing.machineNumber)), { timeout: 30_000 })
      .toBeGreaterThan(50);
    const revoked = byRole('revoked')[0]!;
    await expect
      .poll(
        () =>
          rowsIn(
            deviceCredentials,
            and(eq(deviceCredentials.deviceId, revoked.deviceId), isNotNull(deviceCredentials.revokedCallAt)),
          ),
        { timeout: 30_000 },
      )
      .toBe(1);

    // The steady machines report their check-ins (the last-seen time of the app's clock).
    await t.app.deviceGate.checkIns.flush();
    const seenNow = await rowsIn(devices, gt(devices.lastSeenAt, new Date(t.clock.now.getTime() - 60_000)));
    expect(seenNow).toBeGreaterThanOrEqual(cast.length - 4);

    // Every alarm kind opens: the fleet's, and the demo's licence in grace (the start's full sweep derives it).
    await t.app.licences.sweep(true);
    await t.app.alarmJobs.evaluate();
    const res = await t.injectAs(await adminToken(t), {
      method: 'GET',
      url: apiPaths.alarms,
      query: { state: 'open', limit: '100' },
    });
    const open = (res.json().data as AlarmList).alarms;
    const rules = new Set(open.map((a) => a.rule));
    for (const rule of ['offline', 'app-version', 'error-burst', 'revoked-calls', 'licence-grace'])
      expect(rules, `open alarms: ${[...rules].join(', ')}`).toContain(rule);
    expect(open.find((a) => a.rule === 'offline')?.machineNumber).toBe(byRole('silent')[0]!.machineNumber);
  }, 120_000);

  it('follows the staged rollout: the cohort of 30 % takes 1.3.0, the others the Force 1.2.0, one stays behind', async () => {
    const cast = readCast(castFile(dataDir))!;
    const checking = cast.filter(
      (m) => m.role !== 'silent' && m.role !== 'revoked' && m.autoUpdate !== false,
    );
    // The newest a machine may get (app-updates-seed.ts): 1.3.0 (40) in its cohort, else 1.2.0 (30),
    // a Force release; a machine already past it keeps what it runs.
    const expected = (m: (typeof cast)[number]) =>
      inCohort(m.deviceId, 30) ? 40 : Math.max(30, seeded.get(m.deviceId) ?? 0);
    const reported = async () => {
      await t.app.deviceGate.checkIns.flush();
      const rows = await db().select({ id: devices.id, code: devices.appVersionCode }).from(devices);
      const codes = new Map(rows.map((r) => [r.id, r.code]));
      return checking.filter((m) => codes.get(m.deviceId) !== expected(m)).map((m) => m.machineNumber);
    };
    await expect.poll(reported, { timeout: 30_000 }).toEqual([]);
    // Both ways are taken, so the staging is what decides.
    expect(checking.some((m) => expected(m) === 40 && (seeded.get(m.deviceId) ?? 0) < 40)).toBe(true);
    expect(checking.some((m) => expected(m) === 30)).toBe(true);
    // The machine whose clinic turned updates off still runs the old release (the app-version alarm).
    const behind = cast.filter((m) => m.autoUpdate === false);
    expect(behind).toHaveLength(1);
    const [row] = await db()
      .select({ code: devices.appVersionCode })
      .from(devices)
      .where(eq(devices.id, behind[0]!.deviceId));
    expect(row!.code).toBe(20);
    // The cast file keeps each installed release for the next start.
    const kept = readCast(castFile(dataDir))!;
    expect(
      kept.filter((m) => checking.some((c) => c.deviceId === m.deviceId)).map((m) => m.app.code),
    ).toEqual(checking.map(expected));
  }, 60_000);

  it('keeps each machine’s credential across a restart: nothing is enrolled again', async () => {
    await fleet!.stop();
    const credentialRows = () => rowsIn(deviceCredentials);
    const before = await credentialRows();
    const treatments = () => rowsIn(treatmentRecords);
    const treated = await treatments();
    fleet = await start();
    await expect.poll(treatments, { timeout: 30_000 }).toBeGreaterThan(treated + 5);
    expect(await credentialRows()).toBe(before);
  }, 60_000);

  it('keeps a safety hold across a restart: the machine goes on refusing treatments, logging why', async () => {
    const steady = readCast(castFile(dataDir))!.find((m) => m.role === 'steady')!;
    const reason = 'Demo field safety notice';
    const token = await t.stepUp(await adminToken(t));
    const sent = await t.injectAs(token, {
      method: 'POST',
      url: commandPaths.deviceCommands(steady.deviceId),
      payload: { kind: 'safety-hold', params: { reason } },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    // The machine takes it with a heartbeat, and its app keeps it on disk (the cast file).
    await expect
      .poll(() => readCast(castFile(dataDir))!.find((m) => m.deviceId === steady.deviceId)!.kept?.hold, {
        timeout: 30_000,
      })
      .toBe(reason);

    await fleet!.stop();
    const refusals = () =>
      rowsIn(
        errorLogs,
        and(
          eq(errorLogs.machineNumber, steady.machineNumber),
          eq(errorLogs.message, commandMessages.refusedOnHold(reason)),
        ),
      );
    const treatments = () => rowsIn(treatmentRecords, eq(treatmentRecords.deviceId, steady.deviceId));
    const [refused, treated] = [await refusals(), await treatments()];
    fleet = await start();
    await expect.poll(refusals, { timeout: 30_000 }).toBeGreaterThan(refused);
    expect(await treatments()).toBe(treated);
  }, 60_000);

  it('runs with demo data only, and DEMO_FLEET=0 turns it off', () => {
    const env = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig(env).demoFleet).toBe(true);
    expect(loadConfig(env).alarms.minSupportedAppVersionCode).toBe(30);
    expect(loadConfig({ ...env, DEMO_FLEET: '0' }).demoFleet).toBe(false);
    expect(loadConfig({ ...env, DEMO_FLEET: '0' }).alarms.minSupportedAppVersionCode).toBeUndefined();
    expect(loadConfig({ ...env, DEMO_DATA: '0', DEMO_FLEET: '1' }).demoFleet).toBe(false);
    expect(
      loadConfig({ ...env, MIN_SUPPORTED_APP_VERSION_CODE: '12' }).alarms.minSupportedAppVersionCode,
    ).toBe(12);
  });
});
