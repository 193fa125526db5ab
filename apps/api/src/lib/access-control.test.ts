import Fastify from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { roles, users } from '../db/schema/users.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { routeAccess } from './route-access.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('deny by default, declared', () => {
  it('has a declared access on every registered route', () => {
    expect(t.app.registeredRoutes.length).toBeGreaterThan(30);
    for (const route of t.app.registeredRoutes) {
      expect(['public', 'admin', 'device', 'app-user', 'clinic'], `${route.method} ${route.url}`).toContain(
        route.access,
      );
    }
  });

  it("keeps the machines' routes under /api/v1/app and the console's outside it", () => {
    for (const route of t.app.registeredRoutes) {
      if (route.access === 'device' || route.access === 'app-user') {
        expect(route.url, `${route.method} ${route.url}`).toMatch(/^\/api\/v1\/app\//);
      }
      if (route.access === 'admin')
        expect(route.url, `${route.method} ${route.url}`).not.toMatch(/^\/api\/v1\/app\//);
      // The clinic portal's routes, and only they, are under /api/v1/clinic (decision 088).
      if (route.access === 'clinic')
        expect(route.url, `${route.method} ${route.url}`).toMatch(/^\/api\/v1\/clinic\//);
      if (route.access === 'admin' || route.access === 'device' || route.access === 'app-user')
        expect(route.url, `${route.method} ${route.url}`).not.toMatch(/^\/api\/v1\/clinic\//);
    }
  });

  it('keeps the public API routes to a reviewed list (a new public route must be added here on purpose)', () => {
    const reviewed = [
      'GET /api/health',
      // Signing in and recovering a password happen before there is a session.
      'POST /api/v1/admin/login',
      /^POST \/api\/v1\/admin\/login\/mfa(\/setup|\/confirm)?$/,
      'POST /api/v1/admin/forgot-password',
      'POST /api/v1/admin/verify-email',
      'POST /api/v1/admin/resend-otp',
      'POST /api/v1/admin/reset-password',
      // Unguessable ids: the avatar file, the emailed checkout link, the mobile app's APK.
      'GET /api/v1/admin/profile/image/:name',
      'GET /api/v1/admin/subscrption/detail/:id',
      'POST /api/v1/admin/subscription/checkout',
      'POST /api/v1/admin/subscription/demo-pay',
      'POST /api/v1/admin/subscription/reconcile',
      // The demo provider's receipt page (an unguessable payment id) and card-update form (the link's id).
      'GET /api/v1/receipts/:paymentId',
      'POST /api/v1/admin/subscription/demo-card',
      // Signed by Stripe instead of a session.
      'POST /api/v1/admin/subscription/webhook',
      'GET /api/v1/app/updates/:id/apk',
      'GET /api/v1/app/updates/latest',
      // A machine trades its one-time enrolment code for its credential.
      'POST /api/v1/app/enrol',
      // The public keys machines verify their licences with: public by nature (a JWKS, RFC 7517).
      'GET /.well-known/jwks.json',
      // A clinic acknowledges a field safety notice through its mailed link (256 random bits).
      'GET /api/v1/safety-notice-ack/:token',
      'POST /api/v1/safety-notice-ack/:token',
      // A clinic user's invitation (256 random bits, single use, 72 hours; decision 088).
      'GET /api/v1/clinic/invitation/:token',
      'POST /api/v1/clinic/invitation/:token',
    ];
    const publicApi = t.app.registeredRoutes
      .filter(
        (r) =>
          (r.url.startsWith('/api/') || r.url.startsWith('/.well-known/')) &&
          !r.url.startsWith('/api/docs') &&
          r.access === 'public',
      )
      .map((r) => `${r.method} ${r.url}`);
    expect(publicApi).toContain('POST /api/v1/admin/login');
    for (const entry of publicApi) {
      expect(
        reviewed.some((r) => (typeof r === 'string' ? r === entry : r.test(entry))),
        `${entry} is public but not reviewed`,
      ).toBe(true);
    }
  });

  it('refuses to register a route that declares no access', async () => {
    const app = Fastify();
    app.addHook('onRoute', (route) => {
      routeAccess(route);
    });
    expect(() => app.get('/api/v1/admin/forgotten', async () => 'x')).toThrow(
      /GET \/api\/v1\/admin\/forgotten declares no access/,
    );
    await app.close();
  });

  it('refuses a made-up access value and accepts the real ones', () => {
    expect(() =>
      routeAccess({ url: '/api/x', method: 'GET', config: { access: 'everyone' as 'public' } }),
    ).toThrow(/must be one of public, admin, device, app-user/);
    expect(routeAccess({ url: '/api/x', method: 'GET', config: { access: 'device' } })).toBe('device');
    expect(routeAccess({ url: '/api/x', method: 'GET', config: { access: 'app-user' } })).toBe('app-user');
    expect(routeAccess({ url: '/api/x', method: 'GET', config: { access: 'admin' } })).toBe('admin');
    expect(routeAccess({ url: '/api/x', method: 'GET', config: { access: 'public' } })).toBe('public');
    // The docs and the web app's files are framework routes, readable by anyone.
    expect(routeAccess({ url: '/api/docs/json', method: 'GET' })).toBe('public');
    expect(routeAccess({ url: '/*', method: 'GET' })).toBe('public');
  });
});

describe("access: 'admin' is checked on every request", () => {
  it("refuses a live session with 403 once the user's role is no longer of type admin", async () => {
    const token = await t.login();
    expect((await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(200);
    // Change the role behind the services' back (they would also revoke the session): the
    // per-request check alone must stop the token, once the database has announced the change
    // (at once on PGlite, a moment after the commit on PostgreSQL; decision 074).
    const [admin] = await t.database.db.select({ roleId: users.roleId }).from(users).limit(1);
    const profile = () => t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
    await t.database.db.update(roles).set({ type: 'app' }).where(eq(roles.id, admin!.roleId));
    try {
      await vi.waitFor(async () => expect((await profile()).statusCode).toBe(403), {
        timeout: 3000,
        interval: 20,
      });
      for (const url of ['/api/v1/admin/profile', '/api/v1/admin/users/all', '/api/v1/admin/patient/all']) {
        const res = await t.injectAs(token, { method: 'GET', url });
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ code: 403, msg: 'You are not allowed to do this', data: null });
      }
    } finally {
      await t.database.db.update(roles).set({ type: 'admin' }).where(eq(roles.id, admin!.roleId));
    }
    await vi.waitFor(async () => expect((await profile()).statusCode).toBe(200), {
      timeout: 3000,
      interval: 20,
    });
  });
});
