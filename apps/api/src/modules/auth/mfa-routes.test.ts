import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { mfaAuthenticators, mfaRecoveryCodes } from '#api/db/schema/mfa.ts';
import { base32Decode } from '#api/lib/totp.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import {
  password,
  addAdmin,
  post,
  login,
  codeAt,
  sessionToken,
  enrol,
  challenge,
} from './mfa-test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
