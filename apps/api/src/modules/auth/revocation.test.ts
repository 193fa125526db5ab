import { desc, eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/** Every way a session ends early: the old token must get the expired-session 401 at once. */
let t: TestApp;
let adminToken: string;
let roleIds: { admin: string; app: string };
let serial = 0;
let ip = 0;

beforeAll(async () => {
  t = await createTestApp();
  // Creating admins and changing a role's type need a step-up (decision 046; step-up.test.ts).
  adminToken = await t.stepUp(await t.login());
  const roles = (await t.injectAs(adminToken, { method: 'GET', url: '/api/v1/admin/roles/all' })).json().data
    .roles as { _id: string; type: string }[];
  roleIds = {
    admin: roles.find((r) => r.type === 'admin')!._id,
    app: roles.find((r) => r.type === 'app')!._id,
  };
});
afterAll(() => t.close());

const expired = { code: 401, msg: 'Your session has expired. Please sign in again.', data: null };
const profile = (token: string) => t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
const asAdmin = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.injectAs(adminToken, { method, url, ...(payload ? { payload } : {}) });
const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: `10.9.0.${++ip}` });

/** A console user of their own (the first admin cannot be edited or deleted), signed in. */
async function signedInUser(roleId = roleIds.admin) {
  serial += 1;
  const body = {
    firstName: 'Rev',
    lastName: 'Oked',
    userName: `revoked${serial}`,
    email: `revoked${serial}@example.com`,
    phone: '0123456789',
    roleId,
    password: 'First-pass1',
  };
  const created = await asAdmin('POST', '/api/v1/admin/users/', body);
  expect(created.statusCode, created.body).toBe(201);
  const token = await t.login(body.email, body.password);
  expect((await profile(token)).statusCode).toBe(200);
  return { id: created.json().data._id as string, body, token };
}

async function rememberTokenFor(email: string) {
  expect((await post('/api/v1/admin/forgot-password', { email })).statusCode).toBe(200);
  await t.app.account.idle();
  await t.app.mailer.idle();
  const [mail] = await t.database.db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(eq(mailOutbox.to, email))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  const otp = /(\d{6})/.exec(mail!.text)![1]!;
  const verified = await post('/api/v1/admin/verify-email', { email, otp });
  expect(verified.statusCode, verified.body).toBe(200);
  return verified.json().data.rememberToken as string;
}

describe('revocation', () => {
  it('logout: the token is refused afterwards', async () => {
    const { token } = await signedInUser();
    expect((await t.injectAs(token, { method: 'POST', url: '/api/v1/admin/logout' })).statusCode).toBe(200);
    expect((await profile(token)).json()).toEqual(expired);
  });

  it('password change: every other session of the user is refused, the one that changed it stays', async () => {
    const { body, token: other } = await signedInUser();
    const current = await t.login(body.email, body.password);
    const changed = await t.injectAs(current, {
      method: 'POST',
      url: '/api/v1/admin/change-password',
      payload: { old_password: body.password, new_password: 'Second-pass2' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await profile(other)).json()).toEqual(expired);
    expect((await profile(current)).statusCode).toBe(200);
  });

  it('password reset: every session of the user is refused', async () => {
    const { body, token } = await signedInUser();
    const second = await t.login(body.email, body.password);
    const rememberToken = await rememberTokenFor(body.email);
    expect(
      (
        await post('/api/v1/admin/reset-password', {
          rememberToken,
          email: body.email,
          password: 'Reset-pass3',
        })
      ).statusCode,
    ).toBe(200);
    expect((await profile(token)).json()).toEqual(expired);
    expect((await profile(second)).json()).toEqual(expired);
  });

  it('user deletion: the deleted user’s token is refused', async () => {
    const { id, token } = await signedInUser();
    expect((await asAdmin('DELETE', `/api/v1/admin/users/${id}`)).statusCode).toBe(200);
    expect((await profile(token)).json()).toEqual(expired);
  });

  it('a user moved to an app role loses the console at once', async () => {
    const { id, body, token } = await signedInUser();
    const moved = await asAdmin('PUT', `/api/v1/admin/users/${id}`, {
      ...body,
      password: undefined,
      roleId: roleIds.app,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await profile(token)).statusCode).toBe(401);
  });

  it('a role turned from admin to app type ends its holders’ sessions', async () => {
    const role = await asAdmin('POST', '/api/v1/admin/roles', { roleName: `Temp ${serial}`, type: 'admin' });
    expect(role.statusCode, role.body).toBe(201);
    const roleId = role.json().data._id as string;
    const { token } = await signedInUser(roleId);
    expect(
      (await asAdmin('PUT', `/api/v1/admin/roles/${roleId}`, { roleName: `Temp ${serial}`, type: 'app' }))
        .statusCode,
    ).toBe(200);
    expect((await profile(token)).statusCode).toBe(401);
  });
});

describe('reset tokens and access tokens never stand in for each other', () => {
  it('a reset token is not a bearer token', async () => {
    const { body } = await signedInUser();
    const rememberToken = await rememberTokenFor(body.email);
    const res = await profile(rememberToken);
    expect(res.statusCode).toBe(401);
    // It is still good for what it is for: using it as a bearer did not spend or widen it.
    expect(
      (
        await post('/api/v1/admin/reset-password', {
          rememberToken,
          email: body.email,
          password: 'Reset-pass4',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('an access token does not reset a password', async () => {
    const { body, token } = await signedInUser();
    const res = await post('/api/v1/admin/reset-password', {
      rememberToken: token,
      email: body.email,
      password: 'Hijack-pass5',
    });
    expect(res.statusCode).toBe(400);
    await expect(t.login(body.email, 'Hijack-pass5')).rejects.toThrow(/401/);
    expect((await profile(token)).statusCode).toBe(200);
  });

  it('a JWT signed with our own secret but typed as a reset token is refused as an access token', async () => {
    const { id, token } = await signedInUser();
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    const reset = await new SignJWT({ sid, typ: 'reset' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(id)
      .setIssuer('device-admin-api')
      .setAudience('device-admin-console')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expect((await profile(reset)).statusCode).toBe(401);
  });

  it('refuses alg none, HS512 with our secret, a wrong audience and an expired token on a real route', async () => {
    const { id, token } = await signedInUser();
    const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
    const key = new TextEncoder().encode(t.config.jwtSecret);
    const base = (alg: string, aud = 'device-admin-console', exp: number | string = '1h') =>
      new SignJWT({ sid, typ: 'access' })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setSubject(id)
        .setIssuer('device-admin-api')
        .setAudience(aud)
        .setIssuedAt(Math.floor(t.clock.now.getTime() / 1000))
        .setExpirationTime(exp);
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${token.split('.')[1]}.`;
    const candidates = {
      none,
      hs512: await base('HS512').sign(key),
      audience: await base('HS256', 'someone-else').sign(key),
      // Expired by the app's clock (the test app's clock stands still; Date.now() runs on).
      expired: await base(
        'HS256',
        'device-admin-console',
        Math.floor(t.clock.now.getTime() / 1000) - 10,
      ).sign(key),
    };
    // The same claims, rightly made, do pass: the refusals are about the one thing changed.
    expect((await profile(await base('HS256').sign(key))).statusCode).toBe(200);
    for (const [name, candidate] of Object.entries(candidates)) {
      expect((await profile(candidate)).statusCode, name).toBe(401);
    }
  });
});
