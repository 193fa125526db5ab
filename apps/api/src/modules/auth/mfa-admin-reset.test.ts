import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { accessLogs } from '#api/db/schema/logs.ts';
import { mfaAuthenticators, mfaRecoveryCodes } from '#api/db/schema/mfa.ts';
import { users } from '#api/db/schema/users.ts';
import { base32Decode } from '#api/lib/totp.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import {
  password,
  addAdmin,
  post,
  login,
  codeAt,
  nextStep,
  sessionToken,
  enrol,
  challenge,
} from './mfa-test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
  it('shows whether it is on, resets it after the acting admin’s step-up, ends the user’s sessions and records who did it', async () => {
    const lost = 'lost-phone@example.test';
    const { token: lostSession } = await enrol(t, lost);
    const [target] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, lost));
    const helperEmail = 'helper@example.test';
    const helperId = await addAdmin(t, helperEmail);
    // Signed in a while ago: the sign-in's own step-up (decision 046) has lapsed.
    const helper = await t.lapseStepUp(await sessionToken(t, helperEmail));

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
    // The acting admin's own password, confirmed within 5 minutes (step-up, decision 046), not the user's.
    const refused = await t.injectAs(helper, { method: 'POST', url });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 403,
      msg: 'Confirm your password to continue',
      data: { stepUpRequired: true, needsCode: false },
    });
    const wrong = await t.injectAs(helper, {
      method: 'POST',
      url: apiPaths.profileStepUp,
      payload: { password: 'not-it' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('Password is incorrect');
    expect((await t.injectAs(helper, { method: 'POST', url })).statusCode).toBe(403);
    // Nothing changed on a refused reset.
    expect(
      (await t.injectAs(lostSession, { method: 'GET', url: apiPaths.profileMfa })).json().data.enabled,
    ).toBe(true);

    await t.stepUp(helper, password);
    const done = await t.injectAs(helper, { method: 'POST', url });
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
    const again = await t.injectAs(helper, { method: 'POST', url });
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
    await t.lapseStepUp(helper);
    const url = apiPaths.userMfaReset(target!.id);
    expect(
      (await t.injectAs(helper, { method: 'GET', url: apiPaths.userMfa(target!.id) })).json().data,
    ).toMatchObject({ isYou: false, yourCodeRequired: true });

    const refused = await t.injectAs(helper, { method: 'POST', url });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual({ stepUpRequired: true, needsCode: true });
    const stepUp = (payload: object) =>
      t.injectAs(helper, { method: 'POST', url: apiPaths.profileStepUp, payload });
    const noCode = await stepUp({ password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({ msg: 'Code is required', data: { errors: [{ path: 'code' }] } });
    // The user's code is not the acting admin's.
    const theirCode = await stepUp({ password, code: codeAt(t, lostSecret) });
    expect(theirCode.statusCode).toBe(400);
    expect(theirCode.json()).toMatchObject({
      msg: 'Invalid or expired code',
      data: { errors: [{ path: 'code' }] },
    });
    expect((await t.injectAs(helper, { method: 'POST', url })).statusCode).toBe(403);
    nextStep(t);
    expect((await stepUp({ password, code: codeAt(t, helperSecret) })).statusCode).toBe(200);
    const done = await t.injectAs(helper, { method: 'POST', url });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.enabled).toBe(false);
  });

  it('refuses one’s own (use My Profile), an unknown or malformed id, and callers without a session', async () => {
    const { token, secret } = await enrol(t, 'self-reset@example.test');
    const [self] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'self-reset@example.test'));
    expect(
      (await t.injectAs(token, { method: 'GET', url: apiPaths.userMfa(self!.id) })).json().data,
    ).toMatchObject({ enabled: true, isYou: true, yourCodeRequired: true });
    nextStep(t);
    await t.stepUp(token, password, codeAt(t, secret));
    const own = await t.injectAs(token, { method: 'POST', url: apiPaths.userMfaReset(self!.id) });
    expect(own.statusCode).toBe(400);
    expect(own.json().msg).toBe('Use My Profile to change your own two-step sign-in');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.injectAs(token, { method: 'GET', url: apiPaths.userMfa(unknown) })).statusCode).toBe(404);
    expect(
      (await t.injectAs(token, { method: 'POST', url: apiPaths.userMfaReset(unknown) })).statusCode,
    ).toBe(404);
    expect((await t.injectAs(token, { method: 'GET', url: apiPaths.userMfa('not-a-uuid') })).statusCode).toBe(
      400,
    );
    expect((await post(t, apiPaths.userMfaReset(self!.id))).statusCode).toBe(401);
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
      await t2.stepUp(helper.token, password, codeAt(t2, helper.secret));
      const res = await t2.injectAs(helper.token, { method: 'POST', url: apiPaths.userMfaReset(target!.id) });
      expect(res.statusCode, res.body).toBe(200);
      expect((await login(t2, 'required-lost@example.test')).json().data).toMatchObject({ mfa: 'enrol' });
    } finally {
      await t2.close();
    }
  });
});
