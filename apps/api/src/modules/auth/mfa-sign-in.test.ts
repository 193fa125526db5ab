import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { totp } from '#api/lib/totp.ts';
import { startSmtpPeer, type SmtpPeer } from '#api/test/smtp-peer.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { post, login, codeAt, nextStep, enrol, challenge } from './mfa-test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('signing in with two-step sign-in on', () => {
  it('answers a correct password with a step token, not a session, and the code with a session', async () => {
    const email = 'signin@example.test';
    const { secret } = await enrol(t, email);

    const step = await challenge(t, email);
    expect(step).toEqual({ mfa: 'verify', mfaToken: expect.any(String) });
    expect(step.accessToken).toBeUndefined();
    expect((await login(t, email)).json().msg).toBe('Enter the code from your authenticator app');

    // The step token is not an access token.
    const asBearer = await t.injectAs(step.mfaToken, { method: 'GET', url: apiPaths.profile });
    expect(asBearer.statusCode).toBe(401);

    const res = await post(t, apiPaths.loginMfa, { mfaToken: step.mfaToken, code: codeAt(t, secret) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('Login successful');
    expect(res.json().data.admin).toMatchObject({ email });
    const profile = await t.injectAs(res.json().data.accessToken, { method: 'GET', url: apiPaths.profile });
    expect(profile.statusCode).toBe(200);
  });

  it('refuses a code already used in its time step (replay), and takes the next step’s code', async () => {
    const email = 'replay@example.test';
    const { secret } = await enrol(t, email);
    const code = codeAt(t, secret);
    const first = await post(t, apiPaths.loginMfa, { mfaToken: (await challenge(t, email)).mfaToken, code });
    expect(first.statusCode).toBe(200);
    const replay = await post(t, apiPaths.loginMfa, { mfaToken: (await challenge(t, email)).mfaToken, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ code: 401, msg: 'Invalid or expired code', data: null });
    // An older step's code is refused too once a later one was accepted.
    nextStep(t);
    const fresh = codeAt(t, secret);
    expect(
      (await post(t, apiPaths.loginMfa, { mfaToken: (await challenge(t, email)).mfaToken, code: fresh }))
        .statusCode,
    ).toBe(200);
    const previous = totp(secret, t.clock.now.getTime() - 30_000);
    expect(
      (await post(t, apiPaths.loginMfa, { mfaToken: (await challenge(t, email)).mfaToken, code: previous }))
        .statusCode,
    ).toBe(401);
    // Each code step is a security event in the audit trail, under the account's email.
    await t.app.audit.flush();
    const recorded = [
      ...(await t.database.db
        .select({ event: accessLogs.event, email: accessLogs.userEmail })
        .from(accessLogs)),
      ...(await t.database.db.select({ event: errorLogs.event, email: errorLogs.userEmail }).from(errorLogs)),
    ].filter((r) => r.email === email && r.event?.startsWith('mfa.verify'));
    expect(recorded.filter((r) => r.event === 'mfa.verify.success').length).toBeGreaterThanOrEqual(2);
    expect(recorded.filter((r) => r.event === 'mfa.verify.failure').length).toBeGreaterThanOrEqual(2);
  });

  it('accepts each recovery code once, typed in any case and without the dash', async () => {
    const email = 'recovery@example.test';
    const { token, recoveryCodes } = await enrol(t, email);
    const [first, second] = recoveryCodes;
    expect(
      (await post(t, apiPaths.loginMfa, { mfaToken: (await challenge(t, email)).mfaToken, code: first }))
        .statusCode,
    ).toBe(200);
    const again = await post(t, apiPaths.loginMfa, {
      mfaToken: (await challenge(t, email)).mfaToken,
      code: first,
    });
    expect(again.statusCode).toBe(401);
    const typed = second!.toUpperCase().replace('-', ' ');
    expect(
      (await post(t, apiPaths.loginMfa, { mfaToken: (await challenge(t, email)).mfaToken, code: typed }))
        .statusCode,
    ).toBe(200);
    const status = await t.injectAs(token, { method: 'GET', url: apiPaths.profileMfa });
    expect(status.json().data.recoveryCodesLeft).toBe(8);
  });

  it('throttles wrong codes per account with a 429, even for the right code, across client addresses', async () => {
    const t2 = await createTestApp();
    try {
      const email = 'throttle@example.test';
      const { secret } = await enrol(t2, email);
      for (let i = 0; i < 5; i++) {
        const { mfaToken } = await challenge(t2, email);
        const res = await post(t2, apiPaths.loginMfa, {
          mfaToken,
          code: `99999${i}` === codeAt(t2, secret) ? '888888' : `99999${i}`,
        });
        expect(res.statusCode).toBe(401);
      }
      const { mfaToken } = await challenge(t2, email);
      const blocked = await post(t2, apiPaths.loginMfa, { mfaToken, code: codeAt(t2, secret) });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().msg).toBe('Too many attempts. Please try again later.');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    } finally {
      await t2.close();
    }
  });

  it('throttles one client address guessing codes for many accounts', async () => {
    const t2 = await createTestApp();
    try {
      const ip = '10.9.9.9';
      const tokens: string[] = [];
      for (let i = 0; i < 7; i++) {
        const email = `spray${i}@example.test`;
        await enrol(t2, email);
        tokens.push((await challenge(t2, email)).mfaToken);
      }
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        statuses.push(
          (await post(t2, apiPaths.loginMfa, { mfaToken: tokens[i % 7]!, code: 'zzzzz-zzzzz' }, ip))
            .statusCode,
        );
      }
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await t2.close();
    }
  });

  it('refuses an expired or wrong-purpose step token and a session token in its place', async () => {
    const email = 'expiry@example.test';
    const { token, secret } = await enrol(t, email);
    const { mfaToken } = await challenge(t, email);
    expect((await post(t, apiPaths.loginMfaSetup, { mfaToken })).statusCode).toBe(401);
    expect((await post(t, apiPaths.loginMfa, { mfaToken: token, code: codeAt(t, secret) })).statusCode).toBe(
      401,
    );
    t.clock.advance(5 * 60_000 + 1000);
    const late = await post(t, apiPaths.loginMfa, { mfaToken, code: codeAt(t, secret) });
    expect(late.statusCode).toBe(401);
    expect(late.json().msg).toBe('Your sign-in has expired. Please sign in with your password again.');
  });

  it('names the field for bad bodies and refuses unknown fields and oversize codes with 400', async () => {
    const cases: [object, string][] = [
      [{}, 'mfaToken is required'],
      [{ mfaToken: 'x' }, 'Code is required'],
      [{ mfaToken: 'x', code: '' }, 'Code is required'],
      [{ mfaToken: 'x', code: 5 }, 'code must be text'],
      [{ mfaToken: 'x', code: '1'.repeat(33) }, 'Code must be at most 32 characters'],
      [{ mfaToken: 'x'.repeat(3000), code: '123456' }, 'mfaToken must be at most 2048 characters'],
    ];
    for (const [body, msg] of cases) {
      const res = await post(t, apiPaths.loginMfa, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toContain(msg);
    }
    const extra = await post(t, apiPaths.loginMfa, { mfaToken: 'x', code: '123456', admin: true });
    expect(extra.statusCode).toBe(400);
  });

  it('still asks for the code after a password reset by email OTP', async () => {
    const peer: SmtpPeer = await startSmtpPeer();
    const t2 = await createTestApp({ SMTP_URL: peer.url });
    try {
      const email = 'reset-mfa@example.test';
      const { secret } = await enrol(t2, email);
      expect((await post(t2, apiPaths.forgotPassword, { email })).statusCode).toBe(200);
      await t2.app.account.idle();
      await t2.app.mailer.idle();
      const mail = await peer.waitFor((m) => m.to.includes(email));
      const otp = /code to reset your password is: (\d{6})/.exec(mail.text)![1]!;
      const verified = await post(t2, apiPaths.verifyEmail, { email, otp });
      expect(verified.statusCode).toBe(200);
      const reset = await post(t2, apiPaths.resetPassword, {
        rememberToken: verified.json().data.rememberToken,
        email,
        password: 'Reset-Passw0rd',
      });
      expect(reset.statusCode).toBe(200);
      expect(reset.json().data?.accessToken).toBeUndefined();

      const res = await post(t2, apiPaths.login, { email, password: 'Reset-Passw0rd' });
      expect(res.json().data).toEqual({ mfa: 'verify', mfaToken: expect.any(String) });
      const done = await post(t2, apiPaths.loginMfa, {
        mfaToken: res.json().data.mfaToken,
        code: codeAt(t2, secret),
      });
      expect(done.statusCode).toBe(200);
    } finally {
      await t2.close();
      await peer.close();
    }
  });
});
