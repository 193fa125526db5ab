import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerMessages, customerPaths, type Customer } from '@app/contract/customers';
import type { Assignment } from '@app/contract/machine-assignments';
import { apiPaths } from '@app/contract/paths';
import { accessLogs } from '#api/db/schema/logs.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { addDevice, adminToken } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * A machine's holder over time (issue 39 item 2, decision 087): assign, move, return, the history
 * kept; periods never overlap (a moment before the current period began is refused, and one in the
 * future); bulk assignment answered per machine; the device list's filter, facet and shapes; a
 * customer holding machines cannot be deleted; a payment link takes the machine's holder.
 */

let t: TestApp;
let token: string;
const day = 86_400_000;
const unknownId = '00000000-0000-4000-8000-000000000000';
const ago = (ms: number) => new Date(t.clock.now.getTime() - ms).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t);
});
afterAll(() => t.close());

async function customer(name: string): Promise<Customer> {
  const res = await t.injectAs(token, {
    method: 'POST',
    url: customerPaths.list,
    payload: { name: `${name} ${randomUUID().slice(0, 6)}`, country: 'Italy' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Customer;
}
const assign = (deviceId: string, payload: Record<string, unknown>, as = token) =>
  t.injectAs(as, { method: 'POST', url: customerPaths.machineAssignment(deviceId), payload });
const history = async (deviceId: string) => {
  const res = await t.injectAs(token, { method: 'GET', url: customerPaths.machineAssignments(deviceId) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.assignments as Assignment[];
};
const fieldOf = (body: string) =>
  (JSON.parse(body) as { data?: { errors?: { path: string }[] } }).data?.errors?.map((e) => e.path);

describe('assigning a machine', () => {
  it('assigns, moves and returns a machine, keeping every period, never overlapping', async () => {
    const [a, b] = [await customer('Rome'), await customer('Milan')];
    const { deviceId, machineNumber } = await addDevice(t);
    const first = await assign(deviceId, { customerId: a._id, from: ago(10 * day), reason: 'Sold' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().msg).toBe(customerMessages.assigned);
    expect(first.json().data).toMatchObject({
      customerId: a._id,
      customerName: a.name,
      until: null,
      machineNumber,
    });

    // Already its holder; a moment before its period began; the future; no such customer or machine.
    expect((await assign(deviceId, { customerId: a._id })).statusCode).toBe(409);
    const before = await assign(deviceId, { customerId: b._id, from: ago(11 * day) });
    expect(before.statusCode).toBe(400);
    expect(before.json().msg).toContain('from must be after');
    const future = await assign(deviceId, { customerId: b._id, from: ago(-day) });
    expect(future.statusCode).toBe(400);
    expect(future.json().msg).toBe(customerMessages.inFuture('from'));
    const unknown = await assign(deviceId, { customerId: unknownId });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe(customerMessages.customerUnknown);
    expect((await assign(unknownId, { customerId: a._id })).statusCode).toBe(404);
    const bad = await assign(deviceId, { customerId: 'x', from: 'yesterday' });
    expect(bad.statusCode).toBe(400);
    expect(fieldOf(bad.body)).toEqual(expect.arrayContaining(['customerId', 'from']));

    const moved = await assign(deviceId, { customerId: b._id, from: ago(2 * day), reason: 'Resold' });
    expect(moved.statusCode, moved.body).toBe(200);
    const returned = await t.injectAs(token, {
      method: 'POST',
      url: customerPaths.machineReturn(deviceId),
      payload: { reason: 'Lease ended' },
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json().data).toMatchObject({ customerId: b._id, endReason: 'Lease ended' });
    const again = await t.injectAs(token, {
      method: 'POST',
      url: customerPaths.machineReturn(deviceId),
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(customerMessages.notAssigned);
    // Back at the supplier: a new period may not start before the last one ended.
    const overlap = await assign(deviceId, { customerId: a._id, from: ago(day) });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().msg).toContain('from must not be before');

    const periods = await history(deviceId);
    expect(periods.map((p) => [p.customerName, p.reason, p.endReason])).toEqual([
      [b.name, 'Resold', 'Lease ended'],
      [a.name, 'Sold', 'Resold'],
    ]);
    expect(periods[1]!.until).toBe(periods[0]!.from);
    expect(periods[0]!.until).not.toBeNull();
    const ofA = await t.injectAs(token, { method: 'GET', url: customerPaths.assignments(a._id) });
    expect(ofA.json().data.assignments.map((p: Assignment) => p.deviceId)).toEqual([deviceId]);
  });

  it('shows the holder on the device list, filters and counts by it, and refuses deleting a holder', async () => {
    const c = await customer('Naples');
    const { deviceId } = await addDevice(t);
    expect((await assign(deviceId, { customerId: c._id })).statusCode).toBe(200);
    const listed = await t.injectAs(token, { method: 'GET', url: `${apiPaths.machines}?customer=${c._id}` });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      listed
        .json()
        .data.allDevices.map((d: { _id: string; customerName: string }) => [d._id, d.customerName]),
    ).toEqual([[deviceId, c.name]]);
    const detail = await t.injectAs(token, { method: 'GET', url: apiPaths.machine(deviceId) });
    expect(detail.json().data).toMatchObject({ customerId: c._id, customerName: c.name });
    const none = await t.injectAs(token, {
      method: 'GET',
      url: `${apiPaths.machines}?customer=none&limit=100`,
    });
    expect(none.json().data.allDevices.map((d: { _id: string }) => d._id)).not.toContain(deviceId);
    const badFilter = await t.injectAs(token, { method: 'GET', url: `${apiPaths.machines}?customer=nobody` });
    expect(badFilter.statusCode).toBe(400);
    const facets = await t.injectAs(token, { method: 'GET', url: apiPaths.machineFacets });
    expect(facets.json().data.customers).toContainEqual({ value: c._id, label: c.name, count: 1 });
    const machines = await t.injectAs(token, { method: 'GET', url: customerPaths.machines(c._id) });
    expect(machines.json().data.machines).toMatchObject([{ _id: deviceId, licenceState: 'unlicensed' }]);
    // The count of machines held, on the customer and in the list, is the one it holds.
    const one = await t.injectAs(token, { method: 'GET', url: customerPaths.customer(c._id) });
    expect(one.json().data.machineCount).toBe(1);
    const inList = await t.injectAs(token, {
      method: 'GET',
      url: `${customerPaths.list}?search=${encodeURIComponent(c.name)}`,
    });
    expect(inList.json().data.customers).toMatchObject([{ _id: c._id, machineCount: 1 }]);

    await t.stepUp(token);
    const refused = await t.injectAs(token, { method: 'DELETE', url: customerPaths.customer(c._id) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(customerMessages.holdsMachines(1));
    // The test clock stands still: a return at the very moment of the assignment would end an empty period.
    t.clock.advance(60_000);
    const back = await t.injectAs(token, {
      method: 'POST',
      url: customerPaths.machineReturn(deviceId),
      payload: {},
    });
    expect(back.statusCode, back.body).toBe(200);
    const held = await t.injectAs(token, { method: 'DELETE', url: customerPaths.customer(c._id) });
    expect(held.statusCode).toBe(409);
    expect(held.json().msg).toBe(customerMessages.hasHistory);
  });

  it('assigns machines in bulk, each answered, and the audit row names them and the customer', async () => {
    const c = await customer('Turin');
    const [m1, m2] = [await addDevice(t), await addDevice(t)];
    await t.stepUp(token);
    const res = await t.injectAs(token, {
      method: 'POST',
      url: customerPaths.machineBulkAssign,
      payload: { ids: [m1.deviceId, m2.deviceId, unknownId], customerId: c._id, reason: 'Fleet deal' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ done: 2, refused: 1 });
    expect(res.json().data.results).toContainEqual({
      _id: unknownId,
      outcome: 'refused',
      reason: 'Device not found',
    });
    const again = await t.injectAs(token, {
      method: 'POST',
      url: customerPaths.machineBulkAssign,
      payload: { ids: [m1.deviceId], customerId: c._id },
    });
    expect(again.json().data.results).toEqual([
      { _id: m1.deviceId, outcome: 'refused', reason: customerMessages.alreadyHolder },
    ]);
    const machines = await t.injectAs(token, { method: 'GET', url: customerPaths.machines(c._id) });
    expect(machines.json().data.total).toBe(2);
    await expect
      .poll(async () =>
        (
          await t.database.db
            .select({ ids: accessLogs.listedIds, fields: accessLogs.changedFields })
            .from(accessLogs)
            .where(
              and(
                eq(accessLogs.customerId, c._id),
                eq(accessLogs.resource, `POST ${customerPaths.machineBulkAssign}`),
              ),
            )
            .orderBy(asc(accessLogs.id))
        ).map((r) => [[...(r.ids ?? [])].sort(), r.fields]),
      )
      .toEqual([
        [[m1.deviceId, m2.deviceId].sort(), ['customerId']],
        // The second request assigned none: its row names no machine.
        [[], ['customerId']],
      ]);
  });

  it('refuses assignment without customers.manage, and the history without customers.view', async () => {
    const c = await customer('Genoa');
    const { deviceId } = await addDevice(t);
    const viewer = (await signInWithPermissions(t, token, ['customers.view', 'devices.view'])).token;
    const refused = await assign(deviceId, { customerId: c._id }, viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toContain('customers.manage');
    const none = (await signInWithPermissions(t, token, ['devices.view'])).token;
    const read = await t.injectAs(none, { method: 'GET', url: customerPaths.machineAssignments(deviceId) });
    expect(read.statusCode).toBe(403);
  });
});

describe('a subscription of a held machine', () => {
  it("belongs to the machine's holder unless the link names another customer", async () => {
    const [c, other] = [await customer('Verona'), await customer('Padua')];
    const { deviceId, serialNumber } = await addDevice(t);
    await assign(deviceId, { customerId: c._id });
    const link = (over: Record<string, unknown> = {}) =>
      t.injectAs(token, {
        method: 'POST',
        url: apiPaths.subscriptionAdd,
        payload: {
          fullName: 'Dr Rossi',
          email: 'rossi@clinic.test',
          machineSerialNumber: serialNumber,
          amount: 100,
          isRecurring: false,
          ...over,
        },
      });
    const held = await link();
    expect(held.statusCode, held.body).toBe(201);
    expect(held.json().data).toMatchObject({ customerId: c._id, customerName: c.name });
    const named = await link({ customerId: other._id });
    expect(named.json().data).toMatchObject({ customerId: other._id, customerName: other.name });
    const unknown = await link({ customerId: unknownId });
    expect(unknown.statusCode).toBe(400);
    expect(fieldOf(unknown.body)).toEqual(['customerId']);
    const subs = await t.injectAs(token, { method: 'GET', url: customerPaths.subscriptions(c._id) });
    expect(subs.json().data.subscriptions.map((s: { _id: string }) => s._id)).toEqual([held.json().data._id]);
    await t.stepUp(token);
    const refused = await t.injectAs(token, { method: 'DELETE', url: customerPaths.customer(other._id) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(customerMessages.hasSubscriptions(1));
  });
});
