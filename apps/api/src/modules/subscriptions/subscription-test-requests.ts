import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { devices } from '#api/db/schema/devices.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import type { TestApp } from '#api/test/test-app.ts';

/**
 * A subscription names a machine of the fleet (decision 068): the machine with this serial number,
 * added straight into the database when there is none yet. Answers its id.
 */
export async function machineWithSerial(t: TestApp, serialNumber: string): Promise<string> {
  const [found] = await t.database.db
    .select({ id: devices.id })
    .from(devices)
    .where(sql`lower(${devices.serialNumber}) = lower(${serialNumber})`)
    .limit(1);
  if (found) return found.id;
  const [added] = await t.database.db
    .insert(devices)
    .values({
      machineNumber: `MN-${serialNumber}`,
      serialNumber,
      location: 'Subscribed clinic',
      latitude: 52.37,
      longitude: 4.89,
      city: 'Amsterdam',
      country: 'Netherlands',
      address: 'Damrak 1',
    })
    .returning({ id: devices.id });
  return added!.id;
}

export const validSubscription = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  machineSerialNumber: 'SN-0001',
  amount: 49.99,
  isRecurring: false,
};

/** The subscription routes as the console and the customer's browser call them. */
export function subscriptionRequests(current: () => { t: TestApp; token: string }) {
  /** As the console sends it; a serial number it names is made a machine of the fleet first. */
  const add = async (payload: unknown) => {
    const serial = (payload as { machineSerialNumber?: unknown } | null)?.machineSerialNumber;
    if (typeof serial === 'string' && serial.trim() && serial.length <= 100)
      await machineWithSerial(current().t, serial.trim());
    return current().t.injectAs(current().token, {
      method: 'POST',
      url: '/api/v1/admin/subscrption/add',
      payload: payload as object,
    });
  };
  const detail = (id: string) =>
    current().t.app.inject({ method: 'GET', url: `/api/v1/admin/subscrption/detail/${id}` });
  const checkout = (id: string) =>
    current().t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription/checkout',
      payload: { subcriptionId: id },
    });
  const pay = (
    id: string,
    clientSecret: string,
    card: Partial<{ cardNumber: string; expiry: string; cvc: string }> = {},
  ) =>
    current().t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription/demo-pay',
      payload: {
        subcriptionId: id,
        clientSecret,
        cardNumber: '4242 4242 4242 4242',
        expiry: '12/49',
        cvc: '123',
        ...card,
      },
    });
  const created = async (overrides: object = {}) => {
    const res = await add({ ...validSubscription, ...overrides });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as {
      _id: string;
      status: number;
      expiredAt: string;
      createdAt: string;
      link: string;
      planType: string | null;
    };
  };
  const rowOf = async (id: string) =>
    (await current().t.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  return { add, detail, checkout, pay, created, rowOf };
}
