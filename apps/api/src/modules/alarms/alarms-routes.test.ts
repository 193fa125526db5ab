import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmMessages, type Alarm } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { permissionMessages } from '@app/contract/permissions';
import { accessLogs } from '#api/db/schema/logs.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { adminToken, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { alarmEnv, alarmsOf, evaluate, heartbeat, seenMachine } from './alarms-test-fixtures.ts';

/*
 * The console's side: the list with its filters, the bell's count, acknowledge and resolve (with
 * their audit rows and 409s), who may do what, and validation that names the field.
 */

let t: TestApp;
let oldApp: EnrolledDevice;
let alarm: Alarm;
beforeAll(async () => {
  t = await createTestApp(alarmEnv);
  // A machine on version 12 (below the minimum of 40): one app-version alarm.
  oldApp = await seenMachine(t, 12);
  await evaluate(t);
  [alarm] = (await alarmsOf(t, oldApp)) as [Alarm];
});
afterAll(() => t.close());

const get = async (url: string, query: Record<string, string> = {}, token?: string) =>
  t.injectAs(token ?? (await adminToken(t)), { method: 'GET', url, query });
const post = async (url: string, token?: string) =>
  t.injectAs(token ?? (await adminToken(t)), { method: 'POST', url });
const openCount = async () => (await get(apiPaths.alarmsCount)).json().data.open as number;

describe('GET alarms', () => {
  it('lists open alarms newest first with their machine, rule and what was seen', async () => {
    const second = await seenMachine(t, 20);
    t.clock.advance(1000);
    await evaluate(t);
    const res = await get(apiPaths.alarms, { rule: 'app-version' });
    expect(res.statusCode).toBe(200);
    const { alarms, total, totalPages, page, limit } = res.json().data;
    expect({ total, totalPages, page, limit }).toEqual({ total: 2, totalPages: 1, page: 1, limit: 10 });
    expect(alarms.map((a: Alarm) => a.machineNumber)).toEqual([second.machineNumber, oldApp.machineNumber]);
    expect(alarms[1]).toEqual({
      _id: alarm._id,
      deviceId: oldApp.deviceId,
      machineNumber: oldApp.machineNumber,
      serialNumber: oldApp.serialNumber,
      rule: 'app-version',
      detail: { versionCode: 12, minimum: 40 },
      openedAt: alarm.openedAt,
      acknowledgedAt: null,
      acknowledgedBy: null,
      resolvedAt: null,
      resolvedBy: null,
    });
  });

  it('pages, searches by machine and filters by rule, with totals that match', async () => {
    const all = (await get(apiPaths.alarms, { limit: '1' })).json().data;
    expect(all.alarms).toHaveLength(1);
    expect(all.total).toBe(await openCount());
    expect(all.totalPages).toBe(all.total);
    const found = (await get(apiPaths.alarms, { search: oldApp.machineNumber.toUpperCase() })).json().data;
    expect(found.alarms.map((a: Alarm) => a._id)).toEqual([alarm._id]);
    expect(found.total).toBe(1);
    expect((await get(apiPaths.alarms, { rule: 'error-burst' })).json().data).toMatchObject({
      alarms: [],
      total: 0,
      totalPages: 1,
    });
  });
});

describe('acknowledge and resolve', () => {
  it('acknowledges once, names who did it, keeps the alarm open and writes an audit row naming the machine', async () => {
    const before = await openCount();
    const res = await post(apiPaths.alarmAcknowledge(alarm._id));
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(alarmMessages.acknowledged);
    expect(res.json().data).toMatchObject({
      _id: alarm._id,
      acknowledgedAt: t.clock.now.toISOString(),
      acknowledgedBy: testAdmin.email,
      resolvedAt: null,
    });
    expect(await openCount()).toBe(before);

    const again = await post(apiPaths.alarmAcknowledge(alarm._id));
    expect([again.statusCode, again.json().msg]).toEqual([409, alarmMessages.alreadyAcknowledged]);

    const rows = await t.database.db
      .select()
      .from(accessLogs)
      .where(
        and(
          eq(accessLogs.resource, 'POST /api/v1/admin/alarms/:id/acknowledge'),
          eq(accessLogs.statusCode, 200),
        ),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userEmail: testAdmin.email,
      machineNumber: oldApp.machineNumber,
      recordKind: 'device',
      recordId: oldApp.deviceId,
    });
  });

  it('resolves once, drops the open count, moves the alarm to the past list and audits it', async () => {
    const before = await openCount();
    const res = await post(apiPaths.alarmResolve(alarm._id));
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(alarmMessages.resolved);
    expect(res.json().data).toMatchObject({
      resolvedAt: t.clock.now.toISOString(),
      resolvedBy: testAdmin.email,
    });
    expect(await openCount()).toBe(before - 1);
    expect((await alarmsOf(t, oldApp, 'past')).map((a) => a._id)).toEqual([alarm._id]);

    for (const url of [apiPaths.alarmResolve(alarm._id), apiPaths.alarmAcknowledge(alarm._id)]) {
      const late = await post(url);
      expect([late.statusCode, late.json().msg]).toEqual([409, alarmMessages.alreadyResolved]);
    }
    const [row] = await t.database.db
      .select()
      .from(accessLogs)
      .where(
        and(eq(accessLogs.resource, 'POST /api/v1/admin/alarms/:id/resolve'), eq(accessLogs.statusCode, 200)),
      );
    expect(row).toMatchObject({ userEmail: testAdmin.email, machineNumber: oldApp.machineNumber });
  });

  it('opens a new alarm at the next check when the condition still holds after a resolve, and none once it is gone', async () => {
    await evaluate(t);
    const [reopened, ...more] = await alarmsOf(t, oldApp);
    expect(more).toEqual([]);
    expect(reopened!._id).not.toBe(alarm._id);
    await heartbeat(t, oldApp, 40);
    await evaluate(t);
    expect(await alarmsOf(t, oldApp)).toEqual([]);
  });

  it('answers 404 for an alarm that does not exist and 400 naming the id for one that cannot', async () => {
    const missing = await post(apiPaths.alarmResolve('00000000-0000-4000-8000-000000000000'));
    expect([missing.statusCode, missing.json().msg]).toEqual([404, alarmMessages.notFound]);
    const bad = await post(apiPaths.alarmAcknowledge('not-an-id'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain(alarmMessages.invalidId);
  });
});

describe('who may', () => {
  it('lets devices.view see alarms and the count but not act on them, and keeps everything from a role without it', async () => {
    const viewer = await signInWithPermissions(t, await adminToken(t), ['devices.view']);
    const machine = await seenMachine(t, 5);
    await evaluate(t);
    const [open] = await alarmsOf(t, machine);
    expect((await get(apiPaths.alarms, {}, viewer.token)).statusCode).toBe(200);
    expect((await get(apiPaths.alarmsCount, {}, viewer.token)).statusCode).toBe(200);
    for (const url of [apiPaths.alarmAcknowledge(open!._id), apiPaths.alarmResolve(open!._id)]) {
      const refused = await post(url, viewer.token);
      expect([refused.statusCode, refused.json().msg]).toEqual([
        403,
        permissionMessages.missing('devices.edit'),
      ]);
    }

    const outsider = await signInWithPermissions(t, await adminToken(t), ['logs.view']);
    for (const url of [apiPaths.alarms, apiPaths.alarmsCount, apiPaths.profileAlarmDigest]) {
      const refused = await get(url, {}, outsider.token);
      expect([refused.statusCode, refused.json().msg]).toEqual([
        403,
        permissionMessages.missing('devices.view'),
      ]);
    }
    expect((await alarmsOf(t, machine))[0]).toMatchObject({ acknowledgedAt: null, resolvedAt: null });
  });
});

describe('validation', () => {
  it.each([
    [{ state: 'closed' }, alarmMessages.stateInvalid],
    [{ rule: 'overheating' }, alarmMessages.ruleInvalid],
    [{ limit: '500' }, 'limit must be at most 100'],
    [{ search: 'x'.repeat(101) }, 'search must be at most 100 characters'],
  ])('refuses the list query %o with a message naming the field', async (query, message) => {
    const res = await get(apiPaths.alarms, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(message);
  });

  it('refuses a digest setting that is not true or false, or carries another field', async () => {
    const token = await adminToken(t);
    const put = (payload: unknown) =>
      t.injectAs(token, { method: 'PUT', url: apiPaths.profileAlarmDigest, payload: payload as object });
    const notBoolean = await put({ enabled: 'yes' });
    expect([notBoolean.statusCode, notBoolean.json().msg]).toEqual([400, alarmMessages.enabledInvalid]);
    const extra = await put({ enabled: true, hour: 7 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().msg).toContain('hour');
  });
});
