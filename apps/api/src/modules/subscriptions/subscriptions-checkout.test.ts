import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { accessLogs } from '#api/db/schema/logs.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import {
  machineWithSerial,
  subscriptionRequests,
  validSubscription as valid,
} from './subscription-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { add, detail, checkout, pay, created, rowOf } = subscriptionRequests(() => ({ t, token }));

describe('the public checkout', () => {
  it('shows the summary without a token and reveals nothing else', async () => {
    const sub = await created();
    const res = await detail(sub._id);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual(
      [
        '_id',
        'amount',
        'createdAt',
        'email',
        'fullName',
        'isRecurring',
        'machineSerialNumber',
        'planType',
        'status',
      ].sort(),
    );
    expect(res.json().data).toMatchObject({ fullName: 'Ada Lovelace', amount: 49.99, status: 1 });
  });

  it('answers an unknown or malformed id with 404', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAAAA', 'x', "'; drop table subscriptions; --", 'a'.repeat(64)]) {
      const res = await detail(encodeURIComponent(id));
      expect(res.statusCode, id).toBe(404);
      expect(res.json().msg).toBe('This payment link is not valid.');
    }
    expect((await checkout('AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
  });

  it('pays with 4242 4242 4242 4242 and then refuses to be paid twice', async () => {
    const sub = await created();
    const intent = await checkout(sub._id);
    expect(intent.statusCode, intent.body).toBe(200);
    const { clientSecret, provider } = intent.json().data;
    expect(provider).toBe('demo');
    // A reload reuses the open intent.
    expect((await checkout(sub._id)).json().data.clientSecret).toBe(clientSecret);

    const paid = await pay(sub._id, clientSecret);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.status).toBe('succeeded');
    expect((await detail(sub._id)).json().data.status).toBe(2);

    const again = await pay(sub._id, clientSecret);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('This subscription has already been paid.');
    const intentAgain = await checkout(sub._id);
    expect(intentAgain.statusCode).toBe(409);
  });

  it('labels a demo payment as one in the console list and in the audit trail', async () => {
    const sub = await created({ fullName: 'Demo Labelled' });
    const { clientSecret } = (await checkout(sub._id)).json().data;
    expect((await pay(sub._id, clientSecret)).statusCode).toBe(200);
    const list = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/subscrption/all?limit=100' });
    const listed = list.json().data.subscriptions.find((s: { _id: string }) => s._id === sub._id);
    expect(listed.demoPayment).toBe(true);
    await t.app.audit.flush();
    const rows = await t.database.db
      .select({ event: accessLogs.event, resource: accessLogs.resource })
      .from(accessLogs)
      .where(eq(accessLogs.event, 'payment.demo.success'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]!.resource).toContain('demo-pay');
  });

  it('fails with 4000 0000 0000 0002, and a later good card still pays the link', async () => {
    const sub = await created();
    const { clientSecret } = (await checkout(sub._id)).json().data;
    const declined = await pay(sub._id, clientSecret, { cardNumber: '4000000000000002' });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().msg).toBe('Your card was declined.');
    expect((await detail(sub._id)).json().data.status).toBe(4);

    const retry = (await checkout(sub._id)).json().data.clientSecret;
    expect((await pay(sub._id, retry)).statusCode).toBe(200);
    expect((await detail(sub._id)).json().data.status).toBe(2);
  });

  it('validates the card (Luhn, expiry in the future, CVC) and never stores it', async () => {
    const sub = await created();
    const { clientSecret } = (await checkout(sub._id)).json().data;
    expect((await pay(sub._id, clientSecret, { cardNumber: '4242 4242 4242 4241' })).json().msg).toBe(
      'Your card number is invalid.',
    );
    expect((await pay(sub._id, clientSecret, { expiry: '13/30' })).json().msg).toBe(
      'Expiry date must be MM/YY',
    );
    const past = await pay(sub._id, clientSecret, { expiry: '01/20' });
    expect(past.statusCode).toBe(400);
    expect(past.json().msg).toBe("Your card's expiry date is in the past.");
    expect((await pay(sub._id, clientSecret, { cvc: '12' })).json().msg).toBe('CVC must be 3 or 4 digits');
    expect((await pay(sub._id, 'demo_pi_forged')).statusCode).toBe(409);
    // Any other Luhn-valid number is not a test card: declined.
    expect((await pay(sub._id, clientSecret, { cardNumber: '4111 1111 1111 1111' })).statusCode).toBe(402);
    expect((await pay(sub._id, clientSecret, { cardNumber: '4242424242424242' })).statusCode).toBe(200);

    const dump = await t.database.db.select({ row: sql<string>`${subscriptions}::text` }).from(subscriptions);
    const rows = dump.map((r) => r.row).join('\n');
    expect(rows).toContain(sub._id);
    for (const number of ['4242424242424242', '4111111111111111', '4242 4242'])
      expect(rows).not.toContain(number);
  });

  it('extends the paid period of a recurring plan by one month', async () => {
    const sub = await created({ isRecurring: true, planType: 'month' });
    const { clientSecret } = (await checkout(sub._id)).json().data;
    expect((await pay(sub._id, clientSecret)).statusCode).toBe(200);
    const row = await rowOf(sub._id);
    const expected = new Date(t.clock.now);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(row.expiredAt.getTime()).toBe(expected.getTime());
    expect(row.status).toBe(2);
  });

  it('expires an unpaid link after 7 days: shown Expired on read, unpayable, and written down by the sweep', async () => {
    const t2 = await createTestApp();
    try {
      const tk = await t2.login();
      await machineWithSerial(t2, valid.machineSerialNumber);
      const sub = (
        await t2.injectAs(tk, { method: 'POST', url: '/api/v1/admin/subscrption/add', payload: valid })
      ).json().data;
      const paid = (
        await t2.injectAs(tk, { method: 'POST', url: '/api/v1/admin/subscrption/add', payload: valid })
      ).json().data;
      const { clientSecret } = (
        await t2.app.inject({
          method: 'POST',
          url: '/api/v1/admin/subscription/checkout',
          payload: { subcriptionId: sub._id },
        })
      ).json().data;
      const secret2 = (
        await t2.app.inject({
          method: 'POST',
          url: '/api/v1/admin/subscription/checkout',
          payload: { subcriptionId: paid._id },
        })
      ).json().data.clientSecret;
      await t2.app.inject({
        method: 'POST',
        url: '/api/v1/admin/subscription/demo-pay',
        payload: {
          subcriptionId: paid._id,
          clientSecret: secret2,
          cardNumber: '4242424242424242',
          expiry: '12/49',
          cvc: '123',
        },
      });

      t2.clock.advance(7 * 24 * 3600_000 + 1000);
      const res = await t2.app.inject({ method: 'GET', url: `/api/v1/admin/subscrption/detail/${sub._id}` });
      expect(res.json().data.status).toBe(3);
      const late = await t2.app.inject({
        method: 'POST',
        url: '/api/v1/admin/subscription/demo-pay',
        payload: {
          subcriptionId: sub._id,
          clientSecret,
          cardNumber: '4242424242424242',
          expiry: '12/49',
          cvc: '123',
        },
      });
      expect(late.statusCode).toBe(409);
      expect(late.json().msg).toBe('This payment link has expired. Please ask for a new one.');
      expect(
        (
          await t2.app.inject({
            method: 'POST',
            url: '/api/v1/admin/subscription/checkout',
            payload: { subcriptionId: sub._id },
          })
        ).statusCode,
      ).toBe(409);

      // Sessions last hours, not a week: sign in again.
      const list = (
        await t2.injectAs(await t2.login(), { method: 'GET', url: '/api/v1/admin/subscrption/all' })
      ).json().data.subscriptions;
      expect(Object.fromEntries(list.map((s: { _id: string; status: number }) => [s._id, s.status]))).toEqual(
        { [sub._id]: 3, [paid._id]: 2 },
      );

      expect(await t2.app.subscriptions.sweep()).toMatchObject({ expired: 1 });
      const [row] = await t2.database.db.select().from(subscriptions).where(eq(subscriptions.id, sub._id));
      expect(row!.status).toBe(3);
    } finally {
      await t2.close();
    }
  });

  it('refuses a webhook while Stripe is not configured, changing nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      payload: '{"id":"evt_1"}',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers junk on every subscription route with a 4xx, never a 500', async () => {
    const junk: unknown[] = [
      undefined,
      '',
      'null',
      '[1,2]',
      '{"subcriptionId":{"$gt":""}}',
      '{"subcriptionId":' + '"a"'.repeat(3) + '}',
      JSON.stringify({ subcriptionId: 'x'.repeat(10_000) }),
    ];
    const urls = [
      '/api/v1/admin/subscription/checkout',
      '/api/v1/admin/subscription/demo-pay',
      '/api/v1/admin/subscription/reconcile',
      '/api/v1/admin/subscription/webhook',
    ];
    for (const url of urls) {
      for (const payload of junk) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: payload === undefined ? {} : { 'content-type': 'application/json' },
          payload: payload as string,
        });
        expect(res.statusCode, `${url} ${String(payload)} ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${String(payload)} ${res.body}`).toBeLessThan(500);
      }
    }
    for (const payload of [
      { ...valid, amount: 'Infinity' },
      { ...valid, amount: 1e308 },
      { ...valid, fullName: 'x'.repeat(5000) },
      [valid],
      { ...valid, planType: { a: 1 }, isRecurring: true },
    ]) {
      const res = await add(payload);
      expect(res.statusCode, res.body).toBe(400);
    }
  });
});
