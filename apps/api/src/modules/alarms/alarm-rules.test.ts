import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alarmHistory } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { addDevice, adminToken, deviceInject, enrolDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import {
  alarmEnv,
  alarmsOf,
  evaluate,
  heartbeat,
  minutes,
  openRulesOf,
  revokeEnrolment,
  seenMachine,
  sendErrorLogs,
} from './alarms-test-fixtures.ts';

/*
 * Each rule over real machines (device routes, the coalesced check-ins, the console's revoke) on the
 * test clock: it opens one alarm and never a second while the condition holds, and resolves it by
 * itself when the condition clears. Thresholds: Offline after 15 min, the alarm 1 h later; more than
 * 3 error logs in an hour; versionCode 40 and up supported.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(alarmEnv);
});
afterAll(() => t.close());

const utc = (iso: string) => iso;

describe('offline longer than ALARM_OFFLINE_HOURS', () => {
  it('opens one alarm for an enrolled machine quiet past Offline plus the hours, not two, and clears when it calls', async () => {
    const d = await seenMachine(t);
    const seenAt = t.clock.now.toISOString();
    // Offline (15 min) but not yet for an hour: nothing.
    t.clock.advance(minutes(15 + 59));
    await evaluate(t);
    expect(await alarmsOf(t, d)).toEqual([]);

    t.clock.advance(minutes(2));
    await evaluate(t);
    await evaluate(t);
    const [alarm, ...more] = await alarmsOf(t, d);
    expect(more).toEqual([]);
    expect(alarm).toMatchObject({
      rule: 'offline',
      deviceId: d.deviceId,
      machineNumber: d.machineNumber,
      detail: { lastSeenAt: seenAt },
      acknowledgedAt: null,
      resolvedAt: null,
    });

    // The machine calls again: the next check resolves the alarm by itself, and its history says so.
    await heartbeat(t, d);
    t.clock.advance(1000);
    const outcome = await evaluate(t);
    expect(outcome.offline.cleared).toBeGreaterThanOrEqual(1);
    expect(await alarmsOf(t, d)).toEqual([]);
    const [past] = await alarmsOf(t, d, 'past');
    expect(past).toMatchObject({ _id: alarm!._id, resolvedBy: null, resolvedAt: t.clock.now.toISOString() });
    expect(alarmHistory(past!, utc).map((e) => e.text)).toEqual([
      `Opened: Quiet since ${seenAt}`,
      'Resolved by itself: the machine called again, or is no longer an active, enrolled machine',
    ]);
  });

  it('leaves alone a machine never seen, an inactive one and one whose enrolment was revoked', async () => {
    const never = await enrolDevice(t);
    const inactive = await seenMachine(t);
    const revoked = await seenMachine(t);
    const off = await t.injectAs(await adminToken(t), {
      method: 'PUT',
      url: apiPaths.machine(inactive.deviceId),
      payload: { status: 1 },
    });
    expect(off.statusCode).toBe(200);
    await revokeEnrolment(t, revoked);
    t.clock.advance(minutes(3 * 60));
    await evaluate(t);
    for (const d of [never, inactive, revoked]) expect(await alarmsOf(t, d, 'open', 'offline')).toEqual([]);
  });
});

describe('app version below the minimum supported', () => {
  it('opens one alarm for a machine below MIN_SUPPORTED_APP_VERSION_CODE and clears once it updates', async () => {
    const old = await seenMachine(t, 39);
    const current = await seenMachine(t, 40);
    await evaluate(t);
    await evaluate(t);
    const alarms = await alarmsOf(t, old, 'open', 'app-version');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.detail).toEqual({ versionCode: 39, minimum: 40 });
    expect(await alarmsOf(t, current, 'open', 'app-version')).toEqual([]);

    await heartbeat(t, old, 41);
    await evaluate(t);
    expect(await alarmsOf(t, old, 'open', 'app-version')).toEqual([]);
    const [past] = await alarmsOf(t, old, 'past', 'app-version');
    expect(past).toMatchObject({ _id: alarms[0]!._id, resolvedBy: null });
  });
});

describe('an error-log burst', () => {
  it('opens one alarm past ALARM_ERROR_BURST error logs within an hour, and clears when the hour has gone by', async () => {
    const quiet = await seenMachine(t);
    const noisy = await seenMachine(t);
    await sendErrorLogs(t, quiet, 3);
    await sendErrorLogs(t, noisy, 2);
    t.clock.advance(minutes(10));
    await sendErrorLogs(t, noisy, 2);
    await evaluate(t);
    await evaluate(t);
    expect(await alarmsOf(t, quiet, 'open', 'error-burst')).toEqual([]);
    const alarms = await alarmsOf(t, noisy, 'open', 'error-burst');
    expect(alarms.map((a) => a.detail)).toEqual([{ errors: 4, threshold: 3 }]);

    // An hour after the first two, only two are within the hour: at most three, no burst.
    t.clock.advance(minutes(51));
    await heartbeat(t, noisy);
    await evaluate(t);
    expect(await alarmsOf(t, noisy, 'open', 'error-burst')).toEqual([]);
    expect((await alarmsOf(t, noisy, 'past', 'error-burst')).map((a) => a._id)).toEqual([alarms[0]!._id]);
  });
});

describe('enrolment revoked while the machine still calls', () => {
  it('opens one alarm when a revoked credential is still used, and clears when the calls stop', async () => {
    const d = await seenMachine(t);
    const bystander = await seenMachine(t);
    await revokeEnrolment(t, d);
    await evaluate(t);
    expect(await alarmsOf(t, d, 'open', 'revoked-calls')).toEqual([]);

    const calledAt = t.clock.now.toISOString();
    expect((await heartbeat(t, d)).statusCode).toBe(401);
    // A call the minute after is not written again: the alarm's time stays the first call's.
    t.clock.advance(30_000);
    expect((await heartbeat(t, d)).statusCode).toBe(401);
    // A credential nobody issued is refused alike and names no machine.
    const stranger = await deviceInject(t, `dvc_${'A'.repeat(43)}`, {
      method: 'POST',
      url: apiPaths.appHeartbeat,
      payload: { versionCode: 1 },
    });
    expect(stranger.statusCode).toBe(401);
    await evaluate(t);
    await evaluate(t);
    const alarms = await alarmsOf(t, d, 'open', 'revoked-calls');
    expect(alarms.map((a) => a.detail)).toEqual([{ lastCallAt: calledAt }]);
    expect(await alarmsOf(t, bystander, 'open', 'revoked-calls')).toEqual([]);

    // Quiet for longer than the Online window: the machine has stopped calling.
    t.clock.advance(minutes(16));
    await evaluate(t);
    expect(await alarmsOf(t, d, 'open', 'revoked-calls')).toEqual([]);
    expect(await alarmsOf(t, d, 'past', 'revoked-calls')).toHaveLength(1);
  });
});

describe('the checks', () => {
  it('open one alarm per machine and rule even when two run at once', async () => {
    const d = await seenMachine(t, 12);
    await Promise.all([evaluate(t), evaluate(t), evaluate(t)]);
    expect(await openRulesOf(t, d)).toEqual(['app-version']);
  });

  it('keep the open and total counters equal to the rows, through openings, clearings and machines', async () => {
    const [{ open, total }] = rowsOf(
      await t.database.db.execute(sql`select
        (select count(*)::int from alarms where resolved_at is null) as open,
        (select count(*)::int from alarms) as total`),
    ) as [{ open: number; total: number }];
    const counted = await t.injectAs(await adminToken(t), { method: 'GET', url: apiPaths.alarmsCount });
    expect(counted.json().data).toEqual({ open });
    const counters = rowsOf(
      await t.database.db.execute(
        sql`select table_name, n::int as n from table_row_counts where table_name like 'alarms%' order by 1`,
      ),
    );
    expect(counters).toEqual([
      { table_name: 'alarms', n: total },
      { table_name: 'alarms_open', n: open },
    ]);
    expect(total).toBeGreaterThan(open);
    expect(open).toBeGreaterThan(0);
  });

  it('open nothing for a machine that was only added', async () => {
    const { machineNumber } = await addDevice(t);
    t.clock.advance(minutes(5 * 60));
    await evaluate(t);
    expect(await alarmsOf(t, { machineNumber })).toEqual([]);
  });
});

describe('the timer (ALARM_CHECK_SECONDS)', () => {
  it('runs the checks by itself, with no test calling them', async () => {
    // Test apps run without the job queue; this one runs it, with the checks at their shortest period.
    const timed = await createTestApp({ ...alarmEnv, ALARM_CHECK_SECONDS: '1', RUN_JOBS: '1' });
    try {
      const d = await seenMachine(timed);
      timed.clock.advance(minutes(15 + 61));
      await vi.waitFor(async () => expect(await openRulesOf(timed, d)).toEqual(['offline']), {
        timeout: 5_000,
        interval: 200,
      });
    } finally {
      await timed.close();
    }
  });
});
