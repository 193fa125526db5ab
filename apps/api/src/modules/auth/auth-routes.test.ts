import { deviceApiMessages } from '@app/contract/device-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/admin/login', payload: payload as string, headers });

describe('POST /api/v1/admin/login', () => {
  it('signs the first admin in and returns a token and the admin without secrets', async () => {
    const res = await login({ email: testAdmin.email, password: testAdmin.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(200);
    expect(typeof body.msg).toBe('string');
    expect(body.data.accessToken.split('.')).toHaveLength(3);
    expect(body.data.admin).toMatchObject({
      email: testAdmin.email,
      isDeletable: false,
      role: { type: 'admin', roleName: 'Admin' },
    });
    expect(JSON.stringify(body)).not.toMatch(/password/i);
  });

  it('treats the email case-insensitively', async () => {
    const res = await login({ email: 'ADMIN@Example.com', password: testAdmin.password });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown email with the same 401 message', async () => {
    const wrong = await login(
      { email: testAdmin.email, password: 'nope-nope' },
      { 'x-forwarded-for': '10.0.0.1' },
    );
    const unknown = await login({ email: 'nobody@example.com', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().msg).toBe(unknown.json().msg);
    expect(wrong.json()).toEqual({ code: 401, msg: 'Invalid email or password', data: null });
  });

  it('names the field for each validation rule of the sign-in form', async () => {
    const missing = await login({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toContain('Email is required');
    expect(missing.json().msg).toContain('Password is required');
    expect((await login({ email: 'not-an-email', password: 'x' })).json().msg).toBe('Invalid email format');
    expect((await login({ email: 5, password: 'x' })).json().msg).toBe('email must be text');
  });

  it('answers bad bodies with a 4xx and a message, never a 500', async () => {
    const cases = [
      t.app.inject({ method: 'POST', url: '/api/v1/admin/login' }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/login',
        headers: { 'content-type': 'text/plain' },
        payload: 'hello',
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/login',
        payload: { email: 'a'.repeat(1_000_000), password: 'x' },
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/login',
        payload: { email: 'a@b.co', password: 'x'.repeat(100_000) },
      }),
      t.app.inject({ method: 'POST', url: '/api/v1/admin/login', payload: [1, 2, 3] as unknown as string }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/login',
        payload: { email: { $gt: '' }, password: null },
      }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      const body = res.json();
      expect(body.code).toBe(res.statusCode);
      expect(body.msg.length).toBeGreaterThan(0);
    }
  });

  it('throttles repeated failures for one email with a 429, even with the right password', async () => {
    const t2 = await createTestApp();
    try {
      for (let i = 0; i < 5; i++) {
        const res = await t2.app.inject({
          method: 'POST',
          url: '/api/v1/admin/login',
          payload: { email: testAdmin.email, password: `wrong-${i}` },
        });
        expect(res.statusCode).toBe(401);
      }
      const blocked = await t2.app.inject({ method: 'POST', url: '/api/v1/admin/login', payload: testAdmin });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().msg).toBe('Too many attempts. Please try again later.');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await t2.close();
    }
  });

  it('throttles one client address spraying many emails', async () => {
    const t2 = await createTestApp();
    try {
      let last = 0;
      for (let i = 0; i < 31; i++) {
        const res = await t2.app.inject({
          method: 'POST',
          url: '/api/v1/admin/login',
          payload: { email: `user${i}@example.com`, password: 'x' },
        });
        last = res.statusCode;
      }
      expect(last).toBe(429);
    } finally {
      await t2.close();
    }
  });
});

describe('bearer tokens on admin routes', () => {
  // Every API route that did not declare itself public: anonymous and bad tokens must get a 401.
  // The console's routes; the machines' routes (device credentials) have their own tests in device-api/.
  const privateRoutes = () =>
    t.app.registeredRoutes.filter((r) => r.url.startsWith('/api/') && r.access === 'admin');

  it('refuses a missing device credential on every machine route with 401 naming the header', async () => {
    const machineRoutes = t.app.registeredRoutes.filter(
      (r) => r.access === 'device' || r.access === 'app-user',
    );
    expect(machineRoutes.length).toBeGreaterThan(5);
    for (const route of machineRoutes) {
      const res = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().msg).toBe(deviceApiMessages.credentialMissing);
    }
  });

  it('has private admin routes to check', () => {
    expect(privateRoutes().map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/v1/admin/profile', 'POST /api/v1/admin/logout']),
    );
  });

  const concrete = (url: string) => url.replace(/:(\w+)/g, '00000000-0000-0000-0000-000000000000');

  it('rejects a missing token on every private admin route with 401', async () => {
    for (const route of privateRoutes()) {
      const res = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json()).toEqual({ code: 401, msg: 'Unauthorized access', data: null });
    }
  });

  it('rejects malformed, forged and wrong-type tokens with 401', async () => {
    const forged = await new SignJWT({ sid: 'x', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer('device-admin-api')
      .setAudience('device-admin-console')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-some-other-secret'));
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.`;
    for (const authorization of [
      'Bearer',
      'Bearer abc',
      'Basic YWRtaW46YWRtaW4=',
      `Bearer ${forged}`,
      `Bearer ${unsigned}`,
      'Bearer a.b.c',
    ]) {
      for (const route of privateRoutes()) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers: { authorization },
        });
        expect(res.statusCode, `${authorization} ${route.url}`).toBe(401);
        expect(res.json().code).toBe(401);
      }
    }
  });

  it('accepts a live token and refuses it once the session has expired', async () => {
    const t2 = await createTestApp({ SESSION_HOURS: '1' });
    try {
      const token = await t2.login();
      expect((await t2.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(
        200,
      );
      t2.clock.advance(61 * 60_000);
      for (const route of t2.app.registeredRoutes.filter(
        (r) => r.url.startsWith('/api/') && r.access !== 'public',
      )) {
        const res = await t2.injectAs(token, { method: route.method as 'GET', url: concrete(route.url) });
        expect(res.statusCode, route.url).toBe(401);
      }
    } finally {
      await t2.close();
    }
  });

  it('revokes the token on logout, on every private route', async () => {
    const token = await t.login();
    const profile = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data.email).toBe(testAdmin.email);
    const out = await t.injectAs(token, { method: 'POST', url: '/api/v1/admin/logout' });
    expect(out.json()).toEqual({ code: 200, msg: 'Logout Successfully', data: null });
    for (const route of privateRoutes()) {
      const res = await t.injectAs(token, { method: route.method as 'GET', url: concrete(route.url) });
      expect(res.statusCode, route.url).toBe(401);
    }
  });

  it('rejects an X-Timezone that is not an IANA zone and accepts one that is', async () => {
    const token = await t.login();
    const bad = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/profile',
      headers: { 'x-timezone': 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('X-Timezone');
    const good = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/profile',
      headers: { 'x-timezone': 'Asia/Kolkata' },
    });
    expect(good.statusCode).toBe(200);
  });
});
