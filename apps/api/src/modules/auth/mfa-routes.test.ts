import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { accessLogs, errorLogs } from '../../db/schema/logs.ts';
import { mfaAuthenticators, mfaRecoveryCodes } from '../../db/schema/mfa.ts';
import { roles, users } from '../../db/schema/users.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { base32Decode, totp } from '../../lib/totp.ts';
import { startSmtpPeer, type SmtpPeer } from '../../test/smtp-peer.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let ipCounter = 0;
/** Each caller its own address, so the per-IP limits only bite where a test wants them to. */
const freshIp = () => `10.2.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const password = 'Mfa-Passw0rd!';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function addAdmin(app: TestApp, email: string) {
  const [admin] = await app.database.db
    .select({ id: roles.id })
    .from(roles)
    .where(eq(roles.type, 'admin'))
    .limit(1);
  const [row] = await app.database.db
    .insert(users)
    .values({
      email,
      userName: email.split('@')[0]!,
      passwordHash: await hashPassword(password),
      roleId: admin!.id,
    })
    .returning({ id: users.id });
  return row!.id;
}

const post = (app: TestApp, url: string, payload?: object, ip = freshIp()) =>
  app.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
const login = (app: TestApp, email: string, ip?: string) =>
  post(app, apiPaths.login, { email, password }, ip);
const codeAt = (app: TestApp, secret: Buffer) => totp(secret, app.clock.now.getTime());
/** The next time step, so a fresh code is not refused as a replay of the last one. */
const nextStep = (app: TestApp) => app.clock.advance(30_000);

async function sessionToken(app: TestApp, email: string) {
  const res = await login(app, email);
  expect(res.json().data.accessToken, res.body).toBeTruthy();
  return res.json().data.accessToken as string;
}

/** Adds an admin and enrols through the profile routes as a user would, computing the code from the manual key. */
async function enrol(app: TestApp, email: string) {
  await addAdmin(app, email);
  const token = await sessionToken(app, email);
  const setup = await app.injectAs(token, { method: 'POST', url: apiPaths.profileMfaSetup });
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = base32Decode(setup.json().data.manualKey);
  const confirm = await app.injectAs(token, {
    method: 'POST',
    url: apiPaths.profileMfaConfirm,
    payload: { code: codeAt(app, secret) },
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
  nextStep(app);
  return { token, secret, recoveryCodes: confirm.json().data.recoveryCodes as string[] };
}

async function challenge(app: TestApp, email: string, ip?: string) {
  const res = await login(app, email, ip);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { mfa: string; mfaToken: string; accessToken?: string };
}

describe('enrolment from the profile', () => {
  it('gives a QR code, the otpauth URI and the manual key, and turns on only after a correct code', async () => {
    const email = 'enrol@example.test';
    const userId = await addAdmin(t, email);
    const token = await sessionToken(t, email);

    const before = await t.injectAs(token, { method: 'GET', url: apiPaths.profileMfa });
    expect(before.json().data).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });

    const setup = await t.injectAs(token, { method: 'POST', url: apiPaths.profileMfaSetup });
    expect(setup.statusCode).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    const { otpauthUri, qrCode, manualKey } = setup.json().data;
    expect(manualKey).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Device%20Admin:enrol%40example.test?secret=${manualKey.replace(/ /g, '')}&issuer=Device%20Admin&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    const secret = base32Decode(manualKey);

    // Stored encrypted: neither the base32 key nor the raw bytes are in the row.
    const [row] = await t.database.db
      .select()
      .from(mfaAuthenticators)
      .where(eq(mfaAuthenticators.userId, userId));
    expect(row!.enabledAt).toBeNull();
    expect(row!.secretEnc).not.toContain(manualKey.replace(/ /g, ''));
    expect(row!.secretEnc).not.toContain(secret.toString('base64url'));
    expect(row!.secretEnc).not.toContain(secret.toString('hex'));

    // Pending: sign-in does not ask for a code yet.
    expect((await login(t, email)).json().data.accessToken).toBeTruthy();

    const wrong = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.profileMfaConfirm,
      payload: { code: '000000' === codeAt(t, secret) ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('Invalid or expired code');

    const confirm = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.profileMfaConfirm,
      payload: { code: codeAt(t, secret) },
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json().msg).toBe('Two-step sign-in is on');
    const codes: string[] = confirm.json().data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.database.db
      .select()
      .from(mfaRecoveryCodes)
      .where(eq(mfaRecoveryCodes.userId, userId));
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));

    const after = await t.injectAs(token, { method: 'GET', url: apiPaths.profileMfa });
    expect(after.json().data).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect(after.body).not.toContain(manualKey.slice(0, 8));

    // The secret is never handed out again.
    const again = await t.injectAs(token, { method: 'POST', url: apiPaths.profileMfaSetup });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('Two-step sign-in is already on');
  });

  it('refuses a confirmation with no set-up started, and a code that is not six digits', async () => {
    const email = 'no-setup@example.test';
    await addAdmin(t, email);
    const token = await sessionToken(t, email);
    const res = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.profileMfaConfirm,
      payload: { code: '123456' },
    });
    expect(res.statusCode).toBe(409);
    const letters = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.profileMfaConfirm,
      payload: { code: 'abcdef' },
    });
    expect(letters.statusCode).toBe(400);
    expect(letters.json().msg).toBe('Code must be the 6 digits from your authenticator app');
  });

  it('needs a session for every profile route', async () => {
    for (const url of [
      apiPaths.profileMfaSetup,
      apiPaths.profileMfaConfirm,
      apiPaths.profileMfaDisable,
      apiPaths.profileMfaRecoveryCodes,
    ]) {
      expect((await post(t, url, { code: '123456' })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: apiPaths.profileMfa })).statusCode).toBe(401);
  });
});

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

describe('turning it off and renewing recovery codes', () => {
  it('turns off only with the password and a current code; sign-in then needs the password alone', async () => {
    const email = 'disable@example.test';
    const { token, secret } = await enrol(t, email);
    const url = apiPaths.profileMfaDisable;
    const wrongPassword = await t.injectAs(token, {
      method: 'POST',
      url,
      payload: { password: 'not-it', code: codeAt(t, secret) },
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().msg).toBe('Password is incorrect');
    const wrongCode = await t.injectAs(token, { method: 'POST', url, payload: { password, code: '12345a' } });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().msg).toBe('Invalid or expired code');
    const missing = await t.injectAs(token, { method: 'POST', url, payload: { code: '123456' } });
    expect(missing.json().msg).toContain('Password is required');

    const done = await t.injectAs(token, {
      method: 'POST',
      url,
      payload: { password, code: codeAt(t, secret) },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      msg: 'Two-step sign-in is off',
      data: { enabled: false, recoveryCodesLeft: 0 },
    });
    expect((await login(t, email)).json().data.accessToken).toBeTruthy();
    expect(
      (await t.injectAs(token, { method: 'POST', url, payload: { password, code: '123456' } })).statusCode,
    ).toBe(409);
  });

  it('renews the recovery codes with a current code; the old ones stop working', async () => {
    const email = 'renew@example.test';
    const { token, secret, recoveryCodes } = await enrol(t, email);
    const url = apiPaths.profileMfaRecoveryCodes;
    expect((await t.injectAs(token, { method: 'POST', url, payload: {} })).statusCode).toBe(400);
    const res = await t.injectAs(token, { method: 'POST', url, payload: { code: codeAt(t, secret) } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh: string[] = res.json().data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    expect(
      (
        await post(t, apiPaths.loginMfa, {
          mfaToken: (await challenge(t, email)).mfaToken,
          code: recoveryCodes[0],
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await post(t, apiPaths.loginMfa, { mfaToken: (await challenge(t, email)).mfaToken, code: fresh[0] }))
        .statusCode,
    ).toBe(200);
  });
});

describe('REQUIRE_MFA', () => {
  it('sends an admin without an authenticator to enrol before any session, then asks for codes', async () => {
    const t2 = await createTestApp({ REQUIRE_MFA: '1' });
    try {
      const email = 'required@example.test';
      await addAdmin(t2, email);
      const res = await login(t2, email);
      expect(res.json()).toMatchObject({
        msg: 'Set up two-step sign-in to continue',
        data: { mfa: 'enrol', mfaToken: expect.any(String) },
      });
      expect(res.json().data.accessToken).toBeUndefined();
      const { mfaToken } = res.json().data;
      // An enrol token does not pass the code step.
      expect((await post(t2, apiPaths.loginMfa, { mfaToken, code: '123456' })).statusCode).toBe(401);

      const setup = await post(t2, apiPaths.loginMfaSetup, { mfaToken });
      expect(setup.statusCode, setup.body).toBe(200);
      const secret = base32Decode(setup.json().data.manualKey);
      const confirm = await post(t2, apiPaths.loginMfaConfirm, { mfaToken, code: codeAt(t2, secret) });
      expect(confirm.statusCode, confirm.body).toBe(200);
      const { accessToken, admin, recoveryCodes } = confirm.json().data;
      expect(admin.email).toBe(email);
      expect(recoveryCodes).toHaveLength(10);
      expect((await t2.injectAs(accessToken, { method: 'GET', url: apiPaths.profile })).statusCode).toBe(200);
      const status = await t2.injectAs(accessToken, { method: 'GET', url: apiPaths.profileMfa });
      expect(status.json().data).toEqual({ enabled: true, recoveryCodesLeft: 10, required: true });

      // The enrol token is used up (step-tokens.ts), and the next sign-in asks for a code.
      expect((await post(t2, apiPaths.loginMfaSetup, { mfaToken })).statusCode).toBe(401);
      expect((await challenge(t2, email)).mfa).toBe('verify');

      const off = await t2.injectAs(accessToken, {
        method: 'POST',
        url: apiPaths.profileMfaDisable,
        payload: { password, code: recoveryCodes[0] },
      });
      expect(off.statusCode).toBe(403);
      expect(off.json().msg).toBe('Two-step sign-in is required for console users and cannot be turned off');
    } finally {
      await t2.close();
    }
  });
});

describe("an admin resetting another user's two-step sign-in", () => {
  it('shows whether it is on, resets it with the acting admin’s password, ends the user’s sessions and records who did it', async () => {
    const lost = 'lost-phone@example.test';
    const { token: lostSession } = await enrol(t, lost);
    const [target] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, lost));
    const helperEmail = 'helper@example.test';
    const helperId = await addAdmin(t, helperEmail);
    const helper = await sessionToken(t, helperEmail);

    const status = await t.injectAs(helper, { method: 'GET', url: apiPaths.userMfa(target!.id) });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().data).toEqual({
      enabled: true,
      enabledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      recoveryCodesLeft: 10,
      isYou: false,
      yourCodeRequired: false,
    });

    const url = apiPaths.userMfaReset(target!.id);
    const wrong = await t.injectAs(helper, { method: 'POST', url, payload: { password: 'not-it' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('Password is incorrect');
    expect((await t.injectAs(helper, { method: 'POST', url, payload: {} })).json().msg).toContain(
      'Password is required',
    );
    expect(
      (await t.injectAs(helper, { method: 'POST', url, payload: { password, isAdmin: true } })).statusCode,
    ).toBe(400);
    // Nothing changed on a refused reset.
    expect(
      (await t.injectAs(lostSession, { method: 'GET', url: apiPaths.profileMfa })).json().data.enabled,
    ).toBe(true);

    const done = await t.injectAs(helper, { method: 'POST', url, payload: { password } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      code: 200,
      msg: 'Two-step sign-in was reset. The user signs in with the password and sets it up again.',
      data: { enabled: false, enabledAt: null, recoveryCodesLeft: 0, isYou: false, yourCodeRequired: false },
    });
    expect(
      await t.database.db.select().from(mfaAuthenticators).where(eq(mfaAuthenticators.userId, target!.id)),
    ).toEqual([]);
    expect(
      await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, target!.id)),
    ).toEqual([]);
    // The user's open sessions end; the next sign-in needs the password alone.
    expect((await t.injectAs(lostSession, { method: 'GET', url: apiPaths.profile })).statusCode).toBe(401);
    expect((await login(t, lost)).json().data.accessToken).toBeTruthy();
    // A second reset has nothing to reset.
    const again = await t.injectAs(helper, { method: 'POST', url, payload: { password } });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('This user has no two-step sign-in to reset');

    await t.app.audit.flush();
    const rows = await t.database.db
      .select({
        event: accessLogs.event,
        userId: accessLogs.userId,
        recordKind: accessLogs.recordKind,
        recordId: accessLogs.recordId,
      })
      .from(accessLogs)
      .where(eq(accessLogs.recordId, target!.id));
    expect(rows).toContainEqual({
      event: 'mfa.reset.success',
      userId: helperId,
      recordKind: 'user',
      recordId: target!.id,
    });
    expect(rows).toContainEqual({
      event: 'mfa.reset.failure',
      userId: helperId,
      recordKind: 'user',
      recordId: target!.id,
    });
  });

  it('asks an acting admin whose own two-step sign-in is on for their own current code', async () => {
    const lost = 'lost-again@example.test';
    const { secret: lostSecret } = await enrol(t, lost);
    const [target] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, lost));
    const { token: helper, secret: helperSecret } = await enrol(t, 'careful-helper@example.test');
    const url = apiPaths.userMfaReset(target!.id);
    expect(
      (await t.injectAs(helper, { method: 'GET', url: apiPaths.userMfa(target!.id) })).json().data,
    ).toMatchObject({ isYou: false, yourCodeRequired: true });

    const noCode = await t.injectAs(helper, { method: 'POST', url, payload: { password } });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({
      msg: 'Your code is required: your own two-step sign-in is on',
      data: { errors: [{ path: 'code' }] },
    });
    // The user's code is not the acting admin's.
    const theirCode = await t.injectAs(helper, {
      method: 'POST',
      url,
      payload: { password, code: codeAt(t, lostSecret) },
    });
    expect(theirCode.statusCode).toBe(400);
    expect(theirCode.json().msg).toBe('Invalid or expired code');
    nextStep(t);
    const done = await t.injectAs(helper, {
      method: 'POST',
      url,
      payload: { password, code: codeAt(t, helperSecret) },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.enabled).toBe(false);
  });

  it('refuses one’s own (use My Profile), an unknown or malformed id, and callers without a session', async () => {
    const { token } = await enrol(t, 'self-reset@example.test');
    const [self] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'self-reset@example.test'));
    expect(
      (await t.injectAs(token, { method: 'GET', url: apiPaths.userMfa(self!.id) })).json().data,
    ).toMatchObject({ enabled: true, isYou: true, yourCodeRequired: true });
    const own = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.userMfaReset(self!.id),
      payload: { password, code: '123456' },
    });
    expect(own.statusCode).toBe(400);
    expect(own.json().msg).toBe('Use My Profile to change your own two-step sign-in');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.injectAs(token, { method: 'GET', url: apiPaths.userMfa(unknown) })).statusCode).toBe(404);
    expect(
      (
        await t.injectAs(token, {
          method: 'POST',
          url: apiPaths.userMfaReset(unknown),
          payload: { password },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.injectAs(token, { method: 'GET', url: apiPaths.userMfa('not-a-uuid') })).statusCode).toBe(
      400,
    );
    expect((await post(t, apiPaths.userMfaReset(self!.id), { password })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: apiPaths.userMfa(self!.id) })).statusCode).toBe(401);
  });

  it('under REQUIRE_MFA sends the user to set it up again at the next sign-in', async () => {
    const t2 = await createTestApp({ REQUIRE_MFA: '1' });
    try {
      const enrolAtSignIn = async (email: string) => {
        await addAdmin(t2, email);
        const { mfaToken } = (await login(t2, email)).json().data;
        const secret = base32Decode(
          (await post(t2, apiPaths.loginMfaSetup, { mfaToken })).json().data.manualKey,
        );
        const confirm = await post(t2, apiPaths.loginMfaConfirm, { mfaToken, code: codeAt(t2, secret) });
        return { token: confirm.json().data.accessToken as string, secret };
      };
      await enrolAtSignIn('required-lost@example.test');
      const helper = await enrolAtSignIn('required-helper@example.test');
      nextStep(t2);
      const [target] = await t2.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, 'required-lost@example.test'));
      const res = await t2.injectAs(helper.token, {
        method: 'POST',
        url: apiPaths.userMfaReset(target!.id),
        payload: { password, code: codeAt(t2, helper.secret) },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await login(t2, 'required-lost@example.test')).json().data).toMatchObject({ mfa: 'enrol' });
    } finally {
      await t2.close();
    }
  });
});
