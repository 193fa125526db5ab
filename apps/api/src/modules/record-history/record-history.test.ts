import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { recordHistoryPaths, type HistoryEntry } from '@app/contract/record-history';
import { devices } from '#api/db/schema/devices.ts';
import { checkInvariants } from '#api/hardening/invariants.ts';
import { createStorage } from '#api/lib/storage/create-storage.ts';
import { addDevice, deviceForm } from '#api/test/device-fixtures.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { testAdmin, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());

/** The session id a token names (its `sid` claim). */
const sessionOf = (bearer: string) =>
  (JSON.parse(Buffer.from(bearer.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

async function historyOf(url: string, as = token): Promise<HistoryEntry[]> {
  const res = await t.injectAs(as, { method: 'GET', url, query: { limit: '100' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.history as HistoryEntry[];
}
const changes = (entries: HistoryEntry[]) =>
  entries.map((e) => ({ field: e.field, oldValue: e.oldValue, newValue: e.newValue }));

describe('a device edit', () => {
  it('writes exactly the fields it changed, old and new value, with the admin, session and request', async () => {
    const { deviceId, machineNumber, serialNumber } = await addDevice(t);
    const before = await historyOf(recordHistoryPaths.device(deviceId));
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.machine(deviceId),
      payload: deviceForm({ machineNumber, serialNumber, city: 'Potsdam', location: 'Clinic South' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await historyOf(recordHistoryPaths.device(deviceId));
    const edit = after.slice(0, after.length - before.length);
    // Newest first; one change's fields in the record's order.
    expect(changes(edit)).toEqual([
      { field: 'location', oldValue: 'Clinic North', newValue: 'Clinic South' },
      { field: 'city', oldValue: 'Berlin', newValue: 'Potsdam' },
    ]);
    for (const entry of edit)
      expect(entry).toMatchObject({
        actor: { email: testAdmin.email },
        sessionId: sessionOf(token),
        requestId: expect.any(String),
        secret: false,
        masked: false,
        reason: null,
      });
  });

  it('records its creation by the admin, field by field, from no value', async () => {
    const { deviceId, machineNumber } = await addDevice(t);
    const created = await historyOf(recordHistoryPaths.device(deviceId));
    expect(created.find((e) => e.field === 'machineNumber')).toMatchObject({
      oldValue: null,
      newValue: machineNumber,
      actor: { email: testAdmin.email },
    });
    expect(created.map((e) => e.field)).toEqual(
      expect.arrayContaining(['serialNumber', 'location', 'latitude', 'city', 'status']),
    );
  });

  it("keeps the status select's and the bulk action's changes in each device's history, and no unchanged value", async () => {
    const one = await addDevice(t);
    const two = await addDevice(t);
    await t.injectAs(token, { method: 'PUT', url: apiPaths.machine(one.deviceId), payload: { status: 1 } });
    await t.stepUp(token);
    const bulk = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.machineBulkStatus,
      payload: { ids: [one.deviceId, two.deviceId], status: 1 },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const [latest, next] = await historyOf(recordHistoryPaths.device(one.deviceId));
    // The bulk action found the first already Inactive: nothing changed, nothing recorded.
    expect(latest).toMatchObject({
      field: 'status',
      oldValue: 2,
      newValue: 1,
      actor: { email: testAdmin.email },
    });
    expect(next!.field).not.toBe('status');
    expect((await historyOf(recordHistoryPaths.device(two.deviceId)))[0]).toMatchObject({
      field: 'status',
      oldValue: 2,
      newValue: 1,
      actor: { email: testAdmin.email },
    });
  });

  it('a write by the system is recorded as the system; a check-in and a rolled-back change are not', async () => {
    const { deviceId } = await addDevice(t);
    const db = t.database.db;
    await db.update(devices).set({ address: 'Moved by a job' }).where(eq(devices.id, deviceId));
    await db
      .update(devices)
      .set({ lastSeenAt: new Date(), appVersionCode: 7 })
      .where(eq(devices.id, deviceId));
    await db
      .transaction(async (tx) => {
        await tx.update(devices).set({ city: 'Never' }).where(eq(devices.id, deviceId));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const [latest, next] = await historyOf(recordHistoryPaths.device(deviceId));
    expect(latest).toMatchObject({
      field: 'address',
      newValue: 'Moved by a job',
      actor: null,
      sessionId: null,
    });
    expect(next!.actor).not.toBeNull();
  });

  it("leaves the fuzz suite's invariants whole: no secret's value, and each field's latest history value is its value now", async () => {
    const results = await checkInvariants(t.database.db, createStorage(t.config));
    const history = results.filter((r) => r.name.includes('migration 0049'));
    expect(history).toHaveLength(2);
    for (const { name, violations } of history) expect(violations, name).toEqual([]);
  });
});
