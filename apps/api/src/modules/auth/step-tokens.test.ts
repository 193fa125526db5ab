import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { mfaMessages } from '@app/contract/mfa';
import { base32Decode } from '#api/lib/totp.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { addAdmin, codeAt, enrol, nextStep, password, post } from './mfa-test-helpers.ts';

let t: TestApp;

const stepToken = async (app: TestApp, email: string, pw = password) => {
  const res = await post(app, apiPaths.login, { email, password: pw });
  expect(res.json().data.mfa, res.body).toBe('verify');
  return res.json().data.mfaToken as string;
};

describe('the sign-in step token', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('opens one session only: used again, even with a fresh code, it is refused', async () => {
    const email = 'once@example.test';
    const { secret } = await enrol(t, email);
    const mfaToken = await stepToken(t, email);
    expect((await post(t, apiPaths.loginMfa, { mfaToken, code: codeAt(t, secret) })).statusCode).toBe(200);
    nextStep(t);
    const again = await post(t, apiPaths.loginMfa, { mfaToken, code: codeAt(t, secret) });
    expect(again.statusCode).toBe(401);
    expect(again.json().msg).toBe(mfaMessages.challengeInvalid);
  });

  it('lets only one of two simultaneous uses through', async () => {
    const email = 'race@example.test';
    const { recoveryCodes } = await enrol(t, email);
    const mfaToken = await stepToken(t, email);
    const answers = await Promise.all(
      recoveryCodes.slice(0, 4).map((c) => post(t, apiPaths.loginMfa, { mfaToken, code: c })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401]);
  });

  it('survives a wrong code (the person may type it again), but not a password change', async () => {
    const email = 'pwchange@example.test';
    const { token: session, secret } = await enrol(t, email);
    const mfaToken = await stepToken(t, email);
    expect((await post(t, apiPaths.loginMfa, { mfaToken, code: '000000' })).statusCode).toBe(401);
    const changed = await t.injectAs(session, {
      method: 'POST',
      url: apiPaths.changePassword,
      payload: { old_password: password, new_password: 'Changed-Passw0rd!' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const res = await post(t, apiPaths.loginMfa, { mfaToken, code: codeAt(t, secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe(mfaMessages.challengeInvalid);
    // A token earned with the new password works.
    const fresh = await stepToken(t, email, 'Changed-Passw0rd!');
    expect((await post(t, apiPaths.loginMfa, { mfaToken: fresh, code: codeAt(t, secret) })).statusCode).toBe(
      200,
    );
  });
});

describe('the enrolment step token (REQUIRE_MFA)', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ REQUIRE_MFA: '1' });
  });
  afterAll(() => r.close());

  it('serves the set-up and its confirmation, then is used up', async () => {
    const email = 'enrol-once@example.test';
    await addAdmin(r, email);
    const login = await post(r, apiPaths.login, { email, password });
    expect(login.json().data.mfa, login.body).toBe('enrol');
    const mfaToken = login.json().data.mfaToken as string;
    const setup = await post(r, apiPaths.loginMfaSetup, { mfaToken });
    expect(setup.statusCode, setup.body).toBe(200);
    const secret = base32Decode(setup.json().data.manualKey);
    const confirm = await post(r, apiPaths.loginMfaConfirm, { mfaToken, code: codeAt(r, secret) });
    expect(confirm.statusCode, confirm.body).toBe(200);
    nextStep(r);
    const again = await post(r, apiPaths.loginMfaSetup, { mfaToken });
    expect(again.statusCode).toBe(401);
    expect(again.json().msg).toBe(mfaMessages.challengeInvalid);
  });
});
