import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionEvents, subscriptionPayments } from '#api/db/schema/subscriptions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { recordEvent, recordFirstEvent, recordPayment } from './subscription-history.ts';
import { subscriptionRequests } from './subscription-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());
const { created } = subscriptionRequests(() => ({ t, token }));

const eventsOf = (id: string) =>
  t.database.db.select().from(subscriptionEvents).where(eq(subscriptionEvents.subscriptionId, id));

describe("a subscription's history", () => {
  it('records a payment once per provider and reference, with a 144-bit id', async () => {
    const { _id } = await created({ machineSerialNumber: 'SN-HIST-1' });
    const payment = {
      subscriptionId: _id,
      provider: 'stripe' as const,
      providerRef: 'in_history_1',
      amountCents: 4999,
      paidAt: t.clock.now,
      periodEnd: null,
      receiptUrl: 'https://invoice.stripe.test/in_history_1',
    };
    const first = await recordPayment(t.database.db, payment);
    expect(first.recorded).toBe(true);
    expect(first.id).toMatch(/^[\w-]{24}$/);
    const again = await recordPayment(t.database.db, { ...payment, amountCents: 1 });
    expect(again).toEqual({ id: first.id, recorded: false });
    const rows = await t.database.db
      .select()
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.subscriptionId, _id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amountCents: 4999, receiptUrl: payment.receiptUrl });
    // The same reference at another provider is another payment.
    expect((await recordPayment(t.database.db, { ...payment, provider: 'demo' })).recorded).toBe(true);
  });

  it('adds a first-time event only once, and any other event every time', async () => {
    const { _id } = await created({ machineSerialNumber: 'SN-HIST-2' });
    const before = (await eventsOf(_id)).length;
    const opened = { subscriptionId: _id, kind: 'opened' as const, at: t.clock.now };
    await recordFirstEvent(t.database.db, opened);
    await recordFirstEvent(t.database.db, opened);
    await recordEvent(t.database.db, {
      subscriptionId: _id,
      kind: 'extended',
      at: t.clock.now,
      detail: { reason: 'goodwill', paidThrough: '2030-01-01T23:59:59.999Z' },
    });
    const events = await eventsOf(_id);
    expect(events.filter((e) => e.kind === 'opened')).toHaveLength(1);
    expect(events).toHaveLength(before + 2);
    expect(events.find((e) => e.kind === 'extended')).toMatchObject({
      actorId: null,
      detail: { reason: 'goodwill', paidThrough: '2030-01-01T23:59:59.999Z' },
    });
  });
});
