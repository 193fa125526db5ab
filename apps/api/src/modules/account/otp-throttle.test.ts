import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ip = 0;
const post = (url: string, payload: object, remoteAddress = `10.7.0.${++ip}`) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress });
const verify = (otp: string, remoteAddress?: string) =>
  post('/api/v1/admin/verify-email', { email: testAdmin.email, otp }, remoteAddress);

describe('OTP verification throttling per account', () => {
  it('slows guesses on one account from many addresses by a back-off capped at 30 s, and the owner still gets through', async () => {
    expect((await post('/api/v1/admin/forgot-password', { email: testAdmin.email })).statusCode).toBe(200);
    await t.app.account.idle();
    await t.app.mailer.idle();
    // Five wrong guesses, each from a new address: the per-address limit never sees more than one.
    for (let i = 0; i < 5; i++) expect((await verify(String(100000 + i))).statusCode).toBe(400);
    const held = await verify('123456', '192.0.2.77');
    expect(held.statusCode).toBe(429);
    expect(held.json().msg).toBe('Too many attempts. Please try again later.');
    const wait = Number(held.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);

    // The five wrong tries voided that OTP; the owner asks for a new one after the back-off and uses it.
    t.clock.advance(wait * 1000 + 31_000);
    expect((await post('/api/v1/admin/forgot-password', { email: testAdmin.email })).statusCode).toBe(200);
    await t.app.account.idle();
    await t.app.mailer.idle();
    const [mail] = await t.database.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(eq(mailOutbox.to, testAdmin.email))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    const otp = /(\d{6})/.exec(mail!.text)![1]!;
    const ok = await verify(otp, '192.0.2.77');
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
