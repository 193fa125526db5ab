import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { accessLogs } from '#api/db/schema/logs.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import type { TestApp } from '#api/test/test-app.ts';
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
const { add, created } = subscriptionRequests(() => ({ t, token }));

describe('POST /api/v1/admin/subscrption/add', () => {
  it('creates a Pending subscription with an unguessable id, a 7-day link and mails the link', async () => {
    const sub = await created();
    expect(sub._id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Buffer.from(sub._id, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(sub).toMatchObject({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      machineSerialNumber: 'SN-0001',
      amount: 49.99,
      isRecurring: false,
      planType: null,
      status: 1,
    });
    expect(new Date(sub.expiredAt).getTime() - new Date(sub.createdAt).getTime()).toBe(7 * 24 * 3600_000);
    expect(sub.link).toBe(`${t.config.publicUrl}/plans/${sub._id}`);

    await t.app.mailer.idle();
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ada@example.com'));
    expect(mails.some((m) => m.text.includes(`/plans/${sub._id}`))).toBe(true);
  });

  it('keeps planType only for a recurring plan', async () => {
    expect((await created({ planType: 'year' })).planType).toBeNull();
    expect((await created({ isRecurring: true, planType: 'year' })).planType).toBe('year');
  });

  it('answers each rule of the Subscription form with its message', async () => {
    const msg = async (payload: object) => {
      const res = await add(payload);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().msg as string;
    };
    const all = await msg({});
    for (const m of [
      'Full name is required',
      'Email is required',
      'Machine serial number is required',
      'Amount is required',
      'Payment Type is required',
    ]) {
      expect(all).toContain(m);
    }
    expect(await msg({ ...valid, fullName: '   ' })).toBe('Full name is required');
    expect(await msg({ ...valid, email: 'nope' })).toBe('Invalid email format');
    expect(await msg({ ...valid, amount: 'abc' })).toBe('Amount must be a number');
    expect(await msg({ ...valid, amount: 0 })).toBe('Amount must be greater than 0');
    expect(await msg({ ...valid, amount: -5 })).toBe('Amount must be greater than 0');
    expect(await msg({ ...valid, amount: 1.234 })).toBe('Amount can have at most 2 decimal places');
    expect(await msg({ ...valid, isRecurring: 'maybe' })).toBe('Payment Type must be Recurring or One Time');
    expect(await msg({ ...valid, isRecurring: true })).toBe('Plan type is required');
    expect(await msg({ ...valid, isRecurring: true, planType: 'week' })).toBe(
      'Plan type must be month or year',
    );
  });

  it('needs a token for the admin routes', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/admin/subscrption/add', payload: valid }))
        .statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/subscrption/all' })).statusCode).toBe(
      401,
    );
  });
});

describe('GET /api/v1/admin/subscrption/all', () => {
  // Its own app: the list is empty at first, then holds exactly the twelve links added here.
  let own: Awaited<ReturnType<typeof signedInApp>>;
  beforeAll(async () => (own = await signedInApp()));
  afterAll(() => own.t.close());
  const listPage = (query = '') =>
    own.t.injectAs(own.token, { method: 'GET', url: `/api/v1/admin/subscrption/all${query}` });

  it('reports one page for an empty list, as every other list does', async () => {
    const res = await listPage();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ subscriptions: [], total: 0, total_pages: 1, page: 1 });
  });

  it('pages newest first with subscriptions and total_pages', async () => {
    await machineWithSerial(own.t, valid.machineSerialNumber);
    for (let i = 1; i <= 12; i++) {
      own.t.clock.advance(1000);
      await own.t.injectAs(own.token, {
        method: 'POST',
        url: '/api/v1/admin/subscrption/add',
        payload: { ...valid, fullName: `Customer ${i}` },
      });
    }
    const first = (await listPage()).json().data;
    expect(first.subscriptions).toHaveLength(10);
    expect(first.total_pages).toBe(2);
    expect(first.subscriptions[0].fullName).toBe('Customer 12');
    const second = (await listPage('?page=2&limit=10')).json().data;
    expect(second.subscriptions.map((s: { fullName: string }) => s.fullName)).toEqual([
      'Customer 2',
      'Customer 1',
    ]);
    expect((await listPage('?page=0&limit=abc')).statusCode).toBe(400);
  });

  it('filters by expiry within 7 or 30 days, alone and with the status', async () => {
    // One of the links above, as a paid monthly plan whose period ends in 20 days.
    const [row] = await own.t.database.db.select().from(subscriptions).limit(1);
    const in20Days = new Date(own.t.clock.now.getTime() + 20 * 24 * 3600_000);
    await own.t.database.db
      .update(subscriptions)
      .set({ status: 2, isRecurring: true, planType: 'month', expiredAt: in20Days })
      .where(eq(subscriptions.id, row!.id));
    const totalOf = async (query: string) => {
      const res = await listPage(query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.total;
    };
    expect(await totalOf('?expiresWithin=7')).toBe(11);
    expect(await totalOf('?expiresWithin=30')).toBe(12);
    expect(await totalOf('?expiresWithin=30&status=2')).toBe(1);
    expect(await totalOf('?expiresWithin=7&status=2')).toBe(0);
  });

  it("searches by the customer's name or email or the machine's serial number, in any case (issue 35 item 7)", async () => {
    const totalOf = async (query: string) => {
      const res = await listPage(query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.total;
    };
    // Customer 1, 10, 11 and 12 of the links above; all twelve by email and serial.
    expect(await totalOf('?search=customer%201')).toBe(4);
    expect(await totalOf(`?search=${encodeURIComponent(valid.email.toUpperCase())}`)).toBe(12);
    expect(await totalOf(`?search=${encodeURIComponent(valid.machineSerialNumber.slice(-4))}`)).toBe(12);
    expect(await totalOf('?search=nobody-like-this')).toBe(0);
    // A wildcard is a character, not a pattern.
    expect(await totalOf('?search=%25')).toBe(0);
    const long = await listPage(`?search=${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toBe('search must be at most 100 characters');
  });

  it('exports exactly the filtered rows as CSV, as the list shows them, and audits it', async () => {
    const csv = await own.t.injectAs(own.token, {
      method: 'GET',
      url: '/api/v1/admin/subscrption/export?status=1',
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="subscriptions-/);
    const [header, ...rows] = csv.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(header).toBe('Name,Email,Machine Serial No.,Amount ($),Link Sent Time,Link Expiry Time,Status');
    const listed = (await listPage('?status=1&limit=100')).json().data.subscriptions as {
      fullName: string;
    }[];
    expect(rows.map((r) => r.split(',')[0])).toEqual(listed.map((s) => s.fullName));
    expect(rows.every((r) => r.endsWith(',Pending'))).toBe(true);
    await own.t.app.audit.flush();
    const after = await own.t.database.db
      .select({ resource: accessLogs.resource })
      .from(accessLogs)
      .where(like(accessLogs.resource, 'EXPORT subscriptions%'));
    expect(after.map((r) => r.resource)).toContain(`EXPORT subscriptions ${rows.length} rows: status=1`);
    const bad = await own.t.injectAs(own.token, {
      method: 'GET',
      url: '/api/v1/admin/subscrption/export?expiresWithin=0',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('expiresWithin must be at least 1');
  });
});
