import { isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { createTestApp, testAdmin, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const events = async () => {
  await t.app.audit.flush();
  const access = await t.database.db.select().from(accessLogs).where(isNotNull(accessLogs.event));
  const errors = await t.database.db.select().from(errorLogs).where(isNotNull(errorLogs.event));
  return { access, errors };
};

describe('security events in the audit trail', () => {
  it('records a refused and an accepted sign-in under the email given, and a logout, without the password', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: 'Admin@Example.com', password: 'not-the-password-77' },
    });
    expect(wrong.statusCode).toBe(401);
    const token = await t.login();
    expect((await t.injectAs(token, { method: 'POST', url: '/api/v1/admin/logout' })).statusCode).toBe(200);

    const { access, errors } = await events();
    const kinds = access.map((r) => `${r.event} ${r.userEmail}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        `login.failure ${testAdmin.email}`,
        `login.success ${testAdmin.email}`,
        `logout.success ${testAdmin.email}`,
      ]),
    );
    expect(access.find((r) => r.event === 'logout.success')!.userId).not.toBeNull();
    expect(errors.map((r) => r.event)).toContain('login.failure');
    const everything = JSON.stringify([access, errors]);
    expect(everything).not.toContain('not-the-password-77');
    expect(everything).not.toContain(testAdmin.password);
    expect(everything).not.toContain(token);
  });

  it('records every refused request (401, 403) as access.denied', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/admin/users/all' });
    await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/patient/all',
      headers: { authorization: 'Bearer a.b.c' },
    });
    const { errors } = await events();
    const denied = errors
      .filter((r) => r.event === 'access.denied')
      .map((r) => `${r.statusCode} ${r.resource}`);
    expect(denied).toEqual(
      expect.arrayContaining(['401 GET /api/v1/admin/users/all', '401 GET /api/v1/admin/patient/all']),
    );
  });

  it('records a password change, failed and done, for the signed-in user', async () => {
    const token = await t.login();
    const bad = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/change-password',
      payload: { old_password: 'wrong-old-pass', new_password: 'next-Passw0rd' },
    });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    const good = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/change-password',
      payload: { old_password: testAdmin.password, new_password: 'next-Passw0rd' },
    });
    expect(good.statusCode).toBe(200);
    const { access } = await events();
    const mine = access
      .filter((r) => r.event?.startsWith('password.change'))
      .map((r) => `${r.event} ${r.userEmail}`);
    expect(mine).toEqual(
      expect.arrayContaining([
        `password.change.failure ${testAdmin.email}`,
        `password.change.success ${testAdmin.email}`,
      ]),
    );
    expect(JSON.stringify(access)).not.toContain('next-Passw0rd');
  });

  it('never keeps a password typed into the email field', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: 'my secret pass', password: 'x' },
    });
    const { access, errors } = await events();
    expect(JSON.stringify([access, errors])).not.toContain('my secret pass');
  });
});
