import { desc, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { passwordResets } from '#api/db/schema/account.ts';
import { users } from '#api/db/schema/users.ts';
import { testAdmin } from '#api/test/test-app.ts';
import {
  addAdmin,
  freshIp,
  ctx,
  forgot,
  onAccountApp,
  otpOf,
  post,
  requestOtp,
  resend,
  reset,
  settle,
  verify,
} from './account-test-app.ts';

onAccountApp();

describe('password recovery', () => {
  it('emails a 6-digit OTP over SMTP, trades it for a token, resets the password and signs every session out', async () => {
    const email = 'reset-flow@example.test';
    await addAdmin(email, 'Old-Passw0rd');
    const oldToken = await ctx.t.login(email, 'Old-Passw0rd');

    const res = await forgot(email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, data: null });
    await settle();
    const mail = await ctx.peer.waitFor((m) => m.to.includes(email));
    expect(mail.from).toBe('no-reply@example.test');
    expect(mail.html).toContain(otpOf(mail));
    expect(mail.text).toContain('10 minutes');
    // The code is in the body only: subjects show on lock screens and stay in mail logs.
    expect(mail.subject).toBe('Your password reset code');
    expect(mail.subject).not.toContain(otpOf(mail));
    // Sent: the outbox keeps no copy of the code.
    const [kept] = await ctx.t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, email))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    expect(kept).toMatchObject({ status: 'sent', holdsSecret: true, text: '[cleared after sending]' });
    expect(kept!.html).toBe('[cleared after sending]');

    const verified = await verify(email, otpOf(mail));
    expect(verified.statusCode).toBe(200);
    const { rememberToken, email: echoed } = verified.json().data;
    expect(echoed).toBe(email);
    expect(rememberToken.length).toBeGreaterThanOrEqual(32);

    // A password from the common-password list is refused with its own message, naming the field,
    // and the token stays good for a better one.
    const common = await reset({ rememberToken, email, password: 'Sunshine' });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({
      msg: 'Password is too common: it is on lists of leaked passwords. Choose another',
      data: { errors: [{ path: 'password' }] },
    });
    const done = await reset({ rememberToken, email, password: 'New-Passw0rd' });
    expect(done.statusCode).toBe(200);
    expect((await ctx.t.injectAs(oldToken, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(
      401,
    );
    await expect(ctx.t.login(email, 'Old-Passw0rd')).rejects.toThrow('401');
    expect(await ctx.t.login(email, 'New-Passw0rd')).toBeTruthy();
  });

  it('gives the same answer, and no mail, for an email without an account', async () => {
    const known = await forgot(testAdmin.email);
    const unknown = await forgot('nobody-here@example.test');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    await settle();
    expect(ctx.peer.received.some((m) => m.to.includes('nobody-here@example.test'))).toBe(false);
  });

  it('answers known and unknown emails before looking either up: the lookup, the OTP and the mail come after', async () => {
    const known = 'answered-first@example.test';
    const unknown = 'answered-first-unknown@example.test';
    await addAdmin(known);
    const sentTo = (email: string) => ctx.peer.received.filter((m) => m.to.includes(email)).length;
    const resetRowsOf = async (email: string) =>
      (
        await ctx.t.database.db
          .select({ id: passwordResets.id })
          .from(passwordResets)
          .innerJoin(users, eq(passwordResets.userId, users.id))
          .where(eq(users.email, email))
      ).length;
    // The work after the answer starts on a timer: held here, so nothing of it can run before the
    // answers arrive, however slow the machine (this was a timing test, and failed under load). An
    // answer that waited on that work would wait for good: given up on, by the real clock, after 5 s.
    const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const tooLate = new Promise<never>((_, reject) => {
      deadline = realSetTimeout(
        () => reject(new Error('no answer: it waited on the work meant for after it')),
        5_000,
      );
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const answers = [
        await Promise.race([forgot(known), tooLate]),
        await Promise.race([forgot(unknown), tooLate]),
      ];
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(answers[1]!.json()).toEqual(answers[0]!.json());
      expect(await resetRowsOf(known)).toBe(0);
      expect(sentTo(known)).toBe(0);
      await vi.runOnlyPendingTimersAsync();
    } finally {
      vi.useRealTimers();
      realClearTimeout(deadline);
    }
    await settle();
    expect(await resetRowsOf(known)).toBe(1);
    expect(sentTo(known)).toBe(1);
    expect(sentTo(unknown)).toBe(0);
  });

  it('refuses an OTP after 10 minutes', async () => {
    const otp = await requestOtp(testAdmin.email);
    ctx.t.clock.advance(10 * 60_000 + 1000);
    const res = await verify(testAdmin.email, otp);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Invalid OTP. Please try again.');
  });

  it('accepts an OTP just before 10 minutes have passed', async () => {
    const otp = await requestOtp(testAdmin.email);
    ctx.t.clock.advance(10 * 60_000 - 5000);
    expect((await verify(testAdmin.email, otp)).statusCode).toBe(200);
  });

  it('voids the OTP after 5 wrong tries, so even the right one then fails', async () => {
    const otp = await requestOtp(testAdmin.email);
    const wrong = otp === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await verify(testAdmin.email, wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe('Invalid OTP. Please try again.');
    }
    // Past the per-account back-off (decision 019), so the 400 is the voided OTP, not a 429.
    ctx.t.clock.advance(31_000);
    expect((await verify(testAdmin.email, otp)).statusCode).toBe(400);
  });

  it('lets the right OTP through after fewer than 5 wrong tries', async () => {
    const otp = await requestOtp(testAdmin.email);
    const wrong = otp === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await verify(testAdmin.email, wrong)).statusCode).toBe(400);
    expect((await verify(testAdmin.email, otp)).statusCode).toBe(200);
  });

  it('accepts an OTP only once', async () => {
    const otp = await requestOtp(testAdmin.email);
    expect((await verify(testAdmin.email, otp)).statusCode).toBe(200);
    expect((await verify(testAdmin.email, otp)).statusCode).toBe(400);
  });

  it('does not accept one account’s OTP for another email', async () => {
    await addAdmin('other-owner@example.test');
    const otp = await requestOtp(testAdmin.email);
    expect((await verify('other-owner@example.test', otp)).statusCode).toBe(400);
  });

  it('resends at most once per 30 seconds, and a resent OTP replaces the old one', async () => {
    const first = await requestOtp(testAdmin.email);
    const tooSoon = await resend(testAdmin.email);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.headers['retry-after']).toBeDefined();

    ctx.t.clock.advance(30_000);
    const before = ctx.peer.received.length;
    const again = await resend(testAdmin.email);
    expect(again.statusCode).toBe(200);
    expect(again.json().msg).toBe('OTP resent to your email.');
    await settle();
    const second = otpOf(
      await ctx.peer.waitFor((m) => ctx.peer.received.indexOf(m) >= before && m.to.includes(testAdmin.email)),
    );
    if (second !== first) expect((await verify(testAdmin.email, first)).statusCode).toBe(400);
    expect((await verify(testAdmin.email, second)).statusCode).toBe(200);
  });

  it('throttles the resend of an unknown email the same way', async () => {
    expect((await resend('ghost@example.test')).statusCode).toBe(200);
    expect((await resend('ghost@example.test')).statusCode).toBe(429);
  });

  it('throttles OTP requests per client address', async () => {
    const ip = '192.0.2.77';
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await forgot(`spray-${i}@example.test`, ip)).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 200)).toBe(true);
    expect(codes[30]).toBe(429);
  });

  it('uses a reset token once, only with its own email, and only for 15 minutes', async () => {
    await addAdmin('token-rules@example.test', 'Old-Passw0rd');
    const getToken = async () => {
      ctx.t.clock.advance(61 * 60_000);
      const otp = await requestOtp('token-rules@example.test');
      return (await verify('token-rules@example.test', otp)).json().data.rememberToken as string;
    };

    let rememberToken = await getToken();
    const otherEmail = await reset({ rememberToken, email: testAdmin.email, password: 'Whatever-1' });
    expect(otherEmail.statusCode).toBe(400);
    expect(
      (await reset({ rememberToken, email: 'token-rules@example.test', password: 'First-Passw0rd' }))
        .statusCode,
    ).toBe(200);
    const again = await reset({
      rememberToken,
      email: 'token-rules@example.test',
      password: 'Second-Passw0rd',
    });
    expect(again.statusCode).toBe(400);
    expect(await ctx.t.login('token-rules@example.test', 'First-Passw0rd')).toBeTruthy();

    rememberToken = await getToken();
    ctx.t.clock.advance(15 * 60_000 + 1000);
    expect(
      (await reset({ rememberToken, email: 'token-rules@example.test', password: 'Third-Passw0rd' }))
        .statusCode,
    ).toBe(400);
  });

  it('names the field for each validation rule', async () => {
    const cases: [string, object, string][] = [
      ['/api/v1/admin/forgot-password', {}, 'Email is required'],
      ['/api/v1/admin/forgot-password', { email: 'not-an-email' }, 'Invalid email'],
      ['/api/v1/admin/resend-otp', { email: 'x@' }, 'Invalid email'],
      ['/api/v1/admin/verify-email', { email: testAdmin.email }, 'OTP is required'],
      ['/api/v1/admin/verify-email', { email: testAdmin.email, otp: '12ab56' }, 'OTP must be 6 digits'],
      [
        '/api/v1/admin/reset-password',
        { rememberToken: 'x'.repeat(43), email: testAdmin.email, password: '123' },
        'Password must be at least 6 characters',
      ],
      [
        '/api/v1/admin/reset-password',
        { rememberToken: 'x'.repeat(43), email: testAdmin.email },
        'Password is required',
      ],
    ];
    for (const [url, body, msg] of cases) {
      const res = await post(url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
  });

  it('never answers odd input with a 500', async () => {
    const bodies: unknown[] = [
      null,
      [],
      'text',
      { email: 42 },
      { email: 'a@b.co', otp: 123456 },
      { rememberToken: {}, email: [], password: null },
      { email: 'a'.repeat(5000) },
    ];
    for (const url of [
      '/api/v1/admin/forgot-password',
      '/api/v1/admin/resend-otp',
      '/api/v1/admin/verify-email',
      '/api/v1/admin/reset-password',
    ]) {
      for (const payload of bodies) {
        const res = await ctx.t.app.inject({
          method: 'POST',
          url,
          payload: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
          remoteAddress: freshIp(),
        });
        expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBeLessThan(500);
        expect(res.json().code).toBe(res.statusCode);
      }
    }
  });
});
