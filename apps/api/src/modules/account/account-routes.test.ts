import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { addAdmin, ctx, onAccountApp, post } from './account-test-app.ts';

onAccountApp();

describe('password recovery without SMTP_URL', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(() => plain.close());

  it('keeps the OTP mail in the outbox so the person running the server can read it', async () => {
    await plain.app.inject({
      method: 'POST',
      url: '/api/v1/admin/forgot-password',
      payload: { email: testAdmin.email },
    });
    await plain.app.account.idle();
    const rows = await plain.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, testAdmin.email));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('logged');
    const otp = /is: (\d{6})/.exec(rows[0]!.text)![1]!;
    const res = await plain.app.inject({
      method: 'POST',
      url: '/api/v1/admin/verify-email',
      payload: { email: testAdmin.email, otp },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /api/v1/admin/change-password', () => {
  it('needs a signed-in user', async () => {
    const res = await post('/api/v1/admin/change-password', { old_password: 'a', new_password: 'bbbbbb' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a wrong current password with a message', async () => {
    const token = await ctx.t.login();
    const res = await ctx.t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/change-password',
      payload: { old_password: 'wrong-one', new_password: 'Another-1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Current password is incorrect');
  });

  it('names the field for each validation rule', async () => {
    const token = await ctx.t.login();
    const send = (payload: object) =>
      ctx.t.injectAs(token, { method: 'POST', url: '/api/v1/admin/change-password', payload });
    expect((await send({ new_password: 'abcdefg' })).json().msg).toBe('Current password is required');
    expect((await send({ old_password: 'x', new_password: 'abc' })).json().msg).toBe(
      'Password must be at least 6 characters',
    );
    expect((await send({ old_password: 'x' })).json().msg).toBe('New password is required');
  });

  it('refuses a new password from the common-password list with its own message, naming new_password', async () => {
    await addAdmin('common-pick@example.test', 'Old-Passw0rd');
    const token = await ctx.t.login('common-pick@example.test', 'Old-Passw0rd');
    const res = await ctx.t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/change-password',
      payload: { old_password: 'Old-Passw0rd', new_password: 'iloveyou' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      msg: 'Password is too common: it is on lists of leaked passwords. Choose another',
      data: { errors: [{ path: 'new_password' }] },
    });
    expect(await ctx.t.login('common-pick@example.test', 'Old-Passw0rd')).toMatch(/\./);
  });

  it('changes the password, keeps this session and signs the other sessions out', async () => {
    await addAdmin('changer@example.test', 'Old-Passw0rd');
    const other = await ctx.t.login('changer@example.test', 'Old-Passw0rd');
    const mine = await ctx.t.login('changer@example.test', 'Old-Passw0rd');
    const res = await ctx.t.injectAs(mine, {
      method: 'POST',
      url: '/api/v1/admin/change-password',
      payload: { old_password: 'Old-Passw0rd', new_password: 'New-Passw0rd' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe('Password changed successfully');
    expect((await ctx.t.injectAs(mine, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(
      200,
    );
    expect((await ctx.t.injectAs(other, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(
      401,
    );
    await expect(ctx.t.login('changer@example.test', 'Old-Passw0rd')).rejects.toThrow('401');
    expect(await ctx.t.login('changer@example.test', 'New-Passw0rd')).toBeTruthy();
  });

  it('throttles guessing the current password', async () => {
    await addAdmin('guesser@example.test', 'Right-Passw0rd');
    const token = await ctx.t.login('guesser@example.test', 'Right-Passw0rd');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await ctx.t.injectAs(token, {
        method: 'POST',
        url: '/api/v1/admin/change-password',
        payload: { old_password: `guess-${i}`, new_password: 'Whatever-1' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
  });
});
