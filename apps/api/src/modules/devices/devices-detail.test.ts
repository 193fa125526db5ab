import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { deviceForm as form } from '#api/test/device-fixtures.ts';
import { deviceRequests, missingId } from './device-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { add, list, get, put } = deviceRequests(() => ({ t, token }));

describe('GET and PUT /api/v1/admin/machine/{id}', () => {
  it('reads one device', async () => {
    const created = (await add(form())).json().data;
    const res = await get(created._id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(created);
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    expect((await get(missingId)).json()).toEqual({ code: 404, msg: 'Device not found', data: null });
    for (const bad of ['123', 'not-an-id', "1' or '1'='1", '%00']) {
      const res = await get(encodeURIComponent(bad));
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toBe('Invalid device id');
    }
    expect((await put(missingId, { status: 1 })).statusCode).toBe(404);
    expect((await put('nope', { status: 1 })).statusCode).toBe(400);
  });

  it('updates the form fields and keeps the machine and serial number', async () => {
    const created = (await add(form())).json().data;
    const res = await put(
      created._id,
      form({
        machineNumber: created.machineNumber,
        serialNumber: created.serialNumber,
        city: 'Potsdam',
        latitude: '52.39',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe('Device updated successfully');
    expect(res.json().data).toMatchObject({
      city: 'Potsdam',
      latitude: 52.39,
      machineNumber: created.machineNumber,
    });
    expect(new Date(res.json().data.updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(created.updatedAt).getTime(),
    );
  });

  it('refuses to change the machine or serial number and leaves the device as it was', async () => {
    const created = (await add(form())).json().data;
    const res = await put(
      created._id,
      form({ machineNumber: 'OTHER-1', serialNumber: created.serialNumber, city: 'Elsewhere' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Machine number cannot be changed');
    const res2 = await put(
      created._id,
      form({ machineNumber: created.machineNumber, serialNumber: 'OTHER-2' }),
    );
    expect(res2.json().msg).toBe('Serial number cannot be changed');
    expect((await get(created._id)).json().data).toEqual(created);
  });

  it('changes only the status when the body holds only the status', async () => {
    const created = (await add(form())).json().data;
    const res = await put(created._id, { status: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      msg: 'Status updated successfully!',
      data: { ...created, status: 1, updatedAt: expect.any(String) },
    });
    expect((await put(created._id, { status: '2' })).json().data.status).toBe(2);
  });

  it('names the rule when the status or the form is incomplete or wrong, and changes nothing', async () => {
    const created = (await add(form())).json().data;
    expect((await put(created._id, {})).json().msg).toBe('Status is required');
    expect((await put(created._id, { status: 7 })).json().msg).toBe(
      'Status must be 1 (Inactive) or 2 (Active)',
    );
    const partial = await put(created._id, { machineNumber: created.machineNumber, city: 'Somewhere' });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().msg).toContain('Serial number is required');
    expect(partial.json().msg).toContain('Latitude is required');
    expect(
      (
        await put(
          created._id,
          form({
            machineNumber: created.machineNumber,
            serialNumber: created.serialNumber,
            longitude: 'east',
          }),
        )
      ).json().msg,
    ).toBe('Longitude must be a number');
    expect((await get(created._id)).json().data).toEqual(created);
  });

  it('shows the latest subscription of the device, an unpaid link past expiry as Expired', async () => {
    const created = (await add(form())).json().data;
    const day = 86_400_000;
    const base = t.clock.now.getTime();
    await t.database.db.insert(subscriptions).values([
      {
        id: 'sub-old',
        fullName: 'A',
        email: 'a@b.co',
        machineSerialNumber: created.serialNumber,
        amountCents: 1000,
        isRecurring: false,
        status: 2,
        createdAt: new Date(base - 10 * day),
        expiredAt: new Date(base + day),
      },
      {
        id: 'sub-new',
        fullName: 'A',
        email: 'a@b.co',
        machineSerialNumber: created.serialNumber.toUpperCase(),
        amountCents: 2550,
        isRecurring: true,
        planType: 'month',
        status: 1,
        createdAt: new Date(base - day),
        expiredAt: new Date(base - 1000),
      },
    ]);
    const device = (await get(created._id)).json().data;
    expect(device.subscriptionStatus).toBe(3);
    expect(device.subscriptionDetails).toEqual([
      {
        _id: 'sub-new',
        status: 3,
        createdAt: expect.any(String),
        expiredAt: expect.any(String),
        isRecurring: true,
        planType: 'month',
        amount: 25.5,
        paidThrough: null,
      },
      expect.objectContaining({ _id: 'sub-old', status: 2, isRecurring: false, amount: 10 }),
    ]);
  });
  it('the list page shows every device exactly as its detail does, subscriptions included', async () => {
    // The first pages come back in one statement (subscriptions as JSON, the count beside them); a
    // search takes the other way. Both must agree with the detail, field for field.
    const queries: Record<string, string | number>[] = [
      { limit: 100 },
      { limit: 100, sort: 'machineNumber', direction: 'asc' },
    ];
    for (const query of queries) {
      const page = (await list(query)).json().data;
      expect(page.total).toBeGreaterThan(0);
      expect(
        page.allDevices.some((d: { subscriptionDetails: unknown[] }) => d.subscriptionDetails.length > 1),
      ).toBe(true);
      for (const device of page.allDevices) expect(device).toEqual((await get(device._id)).json().data);
    }
  });

  it("sorts by the status of each device's latest subscription as subscriptions come and change", async () => {
    const tag = randomBytes(3).toString('hex');
    const a = (await add(form({ location: `Sub ${tag} A` }))).json().data;
    const b = (await add(form({ location: `Sub ${tag} B` }))).json().data;
    const day = 86_400_000;
    const base = t.clock.now.getTime();
    const sub = (id: string, serial: string, status: number, ageDays: number) => ({
      id,
      fullName: 'A',
      email: 'a@b.co',
      machineSerialNumber: serial,
      amountCents: 100,
      isRecurring: false,
      status,
      createdAt: new Date(base - ageDays * day),
      expiredAt: new Date(base + 30 * day),
    });
    await t.database.db
      .insert(subscriptions)
      .values([
        sub(`${tag}-a1`, a.serialNumber, 2, 5),
        sub(`${tag}-a2`, a.serialNumber, 4, 1),
        sub(`${tag}-b1`, b.serialNumber, 1, 1),
      ]);
    const order = async () =>
      (await list({ search: `sub ${tag}`, sort: 'subscriptionStatus' }))
        .json()
        .data.allDevices.map((d: { location: string; subscriptionStatus: number }) => [
          d.location.slice(-1),
          d.subscriptionStatus,
        ]);
    expect(await order()).toEqual([
      ['B', 1],
      ['A', 4],
    ]);
    await t.database.db
      .update(subscriptions)
      .set({ status: 2 })
      .where(eq(subscriptions.id, `${tag}-a2`));
    await t.database.db
      .update(subscriptions)
      .set({ status: 3 })
      .where(eq(subscriptions.id, `${tag}-b1`));
    expect(await order()).toEqual([
      ['A', 2],
      ['B', 3],
    ]);
  });
});
