import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import type { TestApp } from '#api/test/test-app.ts';

export const validSubscription = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  machineSerialNumber: 'SN-0001',
  amount: 49.99,
  isRecurring: false,
};

/** The subscription routes as the console and the customer's browser call them. */
export function subscriptionRequests(current: () => { t: TestApp; token: string }) {
  const add = (payload: unknown) =>
    current().t.injectAs(current().token, {
      method: 'POST',
      url: '/api/v1/admin/subscrption/add',
      payload: payload as object,
    });
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
