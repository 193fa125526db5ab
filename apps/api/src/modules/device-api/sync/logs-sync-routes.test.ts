import { randomUUID } from 'node:crypto';
import { and, eq, isNull, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { adminToken } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { accessLogItem, call, doctor, machine, type Machine, type Person } from './sync-test-fixtures.ts';

let t: TestApp;
let a: Machine;
let b: Machine;
let drA: Person;
let drB: Person;

beforeAll(async () => {
  t = await createTestApp();
  [a, b] = [await machine(t), await machine(t)];
  [drA, drB] = [await doctor(t, a), await doctor(t, b)];
});
afterAll(() => t.close());

const sendAccess = (m: Machine, items: unknown[]) =>
  call(t, m, { method: 'POST', url: apiPaths.appAccessLogs, payload: { items } });
const rowsOf = (m: Machine) =>
  t.database.db.select().from(accessLogs).where(eq(accessLogs.machineNumber, m.machineNumber));

describe('POST access-logs', () => {
  it('stores the good items and refuses each bad one with a reason naming its field', async () => {
    const good1 = accessLogItem(t, { userId: drA.userId, location: '203.0.113.7' });
    const good2 = accessLogItem(t);
    const badTime = accessLogItem(t, { time: 'yesterday' });
    const badResource = { ...accessLogItem(t), resource: '' };
    const res = await sendAccess(a, [good1, badTime, good2, badResource, 'not an item']);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.accepted).toBe(2);
    expect(data.refused).toBe(3);
    expect(data.results.map((r: { status: string }) => r.status)).toEqual([
      'accepted',
      'refused',
      'accepted',
      'refused',
      'refused',
    ]);
    expect(data.results[1]).toEqual({
      id: badTime.id,
      status: 'refused',
      reason: 'time: time must be an ISO 8601 date-time with a time zone',
    });
    expect(data.results[3].reason).toBe('resource: resource is required');
    expect(data.results[4]).toEqual({ id: null, status: 'refused', reason: 'item must be an object' });

    const rows = await rowsOf(a);
    const stored = rows.find((r) => r.clientId === good1.id)!;
    expect(stored).toMatchObject({
      userId: String(drA.userId),
      userEmail: drA.email,
      resource: good1.resource,
      location: '203.0.113.7',
      statusCode: null,
    });
    expect(stored.createdAt.toISOString()).toBe(good1.time);
    expect(stored.receivedAt!.getTime()).toBe(t.clock.now.getTime());
    // No location sent: the request's own address.
    expect(rows.find((r) => r.clientId === good2.id)!.location).toBe('127.0.0.1');
  });

  it('answers a retried batch the same way and never stores an item twice', async () => {
    const items = [accessLogItem(t), accessLogItem(t), { ...accessLogItem(t), time: '2020-01-01' }];
    const first = (await sendAccess(a, items)).json().data;
    const again = (await sendAccess(a, items)).json().data;
    expect(again).toEqual(first);
    expect(first.accepted).toBe(2);
    const rows = await rowsOf(a);
    for (const item of items.slice(0, 2)) expect(rows.filter((r) => r.clientId === item.id)).toHaveLength(1);
  });

  it('stores an id sent twice in one batch once, answering both', async () => {
    const item = accessLogItem(t);
    const { data } = (await sendAccess(a, [item, { ...item }])).json();
    expect(data).toMatchObject({ accepted: 2, refused: 0 });
    expect((await rowsOf(a)).filter((r) => r.clientId === item.id)).toHaveLength(1);
  });

  it('refuses device times in the future or more than a year old', async () => {
    const future = accessLogItem(t, { time: new Date(t.clock.now.getTime() + 6 * 60_000).toISOString() });
    const slightlyAhead = accessLogItem(t, { time: new Date(t.clock.now.getTime() + 60_000).toISOString() });
    const old = accessLogItem(t, { time: new Date(t.clock.now.getTime() - 367 * 86_400_000).toISOString() });
    const { data } = (await sendAccess(a, [future, slightlyAhead, old])).json();
    expect(data.results).toEqual([
      { id: future.id, status: 'refused', reason: 'time: time is in the future' },
      { id: slightlyAhead.id, status: 'accepted' },
      { id: old.id, status: 'refused', reason: 'time: time is more than a year old' },
    ]);
  });

  it("refuses a userId that is not a person of this machine (machine B's doctor)", async () => {
    const item = accessLogItem(t, { userId: drB.userId });
    const { data } = (await sendAccess(a, [item])).json();
    expect(data.results[0]).toEqual({
      id: item.id,
      status: 'refused',
      reason: 'userId: userId is not a user of this machine',
    });
  });

  it('keeps the same client id apart on two machines', async () => {
    const item = accessLogItem(t);
    expect((await sendAccess(a, [item])).json().data.accepted).toBe(1);
    expect((await sendAccess(b, [item])).json().data.accepted).toBe(1);
    expect((await rowsOf(a)).filter((r) => r.clientId === item.id)).toHaveLength(1);
    expect((await rowsOf(b)).filter((r) => r.clientId === item.id)).toHaveLength(1);
  });

  it('needs the device credential, and takes no console token', async () => {
    const items = [accessLogItem(t)];
    const none = await t.app.inject({ method: 'POST', url: apiPaths.appAccessLogs, payload: { items } });
    expect(none.statusCode).toBe(401);
    const admin = await t.injectAs(await adminToken(t), {
      method: 'POST',
      url: apiPaths.appAccessLogs,
      payload: { items },
    });
    expect(admin.statusCode).toBe(401);
  });

  it('refuses an empty or oversized batch as a whole with a 400 naming items', async () => {
    const empty = await sendAccess(a, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toMatch(/items/);
    const tooMany = await sendAccess(
      a,
      Array.from({ length: 501 }, () => accessLogItem(t)),
    );
    expect(tooMany.statusCode).toBe(400);
  });

  it("shows the machine's logs in the console's access log list", async () => {
    const item = accessLogItem(t, { resource: 'POST /api/v1/app/treatments', userId: drA.userId });
    await sendAccess(a, [item]);
    const res = await t.injectAs(await adminToken(t), {
      method: 'GET',
      url: `${apiPaths.accessLogsAll}?machineNumber=${a.machineNumber}&limit=100`,
    });
    expect(res.statusCode).toBe(200);
    const logs = res.json().data.logs as { resource: string; machineNumber: string; time: string }[];
    expect(logs.some((l) => l.resource === item.resource && l.time === item.time)).toBe(true);
    expect(logs.every((l) => l.machineNumber === a.machineNumber)).toBe(true);
  });
});

describe('POST error-logs', () => {
  it('stores error logs with their function and message, idempotent by id', async () => {
    const item = {
      id: randomUUID(),
      resource: 'POST /api/v1/app/treatments',
      functionName: 'syncTreatments',
      message: 'Upload timed out',
      utcTime: new Date(t.clock.now.getTime() - 5_000).toISOString(),
      userId: drA.userId,
    };
    const bad = { ...item, id: randomUUID(), functionName: undefined };
    const send = () =>
      call(t, a, { method: 'POST', url: apiPaths.appErrorLogs, payload: { items: [item, bad] } });
    const first = (await send()).json().data;
    expect(first.results).toEqual([
      { id: item.id, status: 'accepted' },
      { id: bad.id, status: 'refused', reason: 'functionName: functionName is required' },
    ]);
    expect((await send()).json().data).toEqual(first);
    const rows = await t.database.db.select().from(errorLogs).where(eq(errorLogs.clientId, item.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      machineNumber: a.machineNumber,
      functionName: 'syncTreatments',
      message: 'Upload timed out',
      userEmail: drA.email,
      statusCode: null,
    });
  });
});

describe('the audit trail of device routes', () => {
  it('writes no API access row for successful device calls, but records their failures', async () => {
    await t.app.audit.flush();
    const apiRows = await t.database.db
      .select()
      .from(accessLogs)
      // Security events (enrolment, sign-in on the machine) are kept; ordinary calls write nothing.
      .where(
        and(
          isNull(accessLogs.clientId),
          isNull(accessLogs.event),
          like(accessLogs.resource, '% /api/v1/app/%'),
        ),
      );
    expect(apiRows).toEqual([]);
    const refused = await t.app.inject({
      method: 'POST',
      url: apiPaths.appErrorLogs,
      headers: { authorization: 'Device dvc_nope' },
      payload: { items: [] },
    });
    expect(refused.statusCode).toBe(401);
    await t.app.audit.flush();
    const failures = await t.database.db
      .select()
      .from(errorLogs)
      .where(and(isNull(errorLogs.clientId), eq(errorLogs.resource, `POST ${apiPaths.appErrorLogs}`)));
    expect(failures.length).toBeGreaterThan(0);
  });
});
