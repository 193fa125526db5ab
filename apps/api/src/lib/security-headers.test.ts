import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  // A built console beside the API, so the HTML pages are served too.
  const dist = path.join(process.env.TMPDIR ?? '/tmp', `headers-web-${process.pid}-${Date.now()}`);
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
  t = await createTestApp({ WEB_DIST: dist, TRUST_PROXY: '1' });
  token = await t.login();
});
afterAll(() => t.close());

const cspOf = (headers: Record<string, unknown>) => String(headers['content-security-policy']);

describe('security headers', () => {
  it('sends the strict CSP and the fixed headers (nosniff, no-referrer, same-origin, no framing) on API answers, pages and errors', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/profile' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/nothing-here' }),
      await t.app.inject({ method: 'GET', url: '/admin/device' }),
      await t.app.inject({ method: 'GET', url: '/' }),
    ];
    for (const res of answers) {
      const csp = cspOf(res.headers);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/stripe/);
      expect(res.headers).toMatchObject({
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it("allows Stripe's hosts only on the public checkout page", async () => {
    for (const url of ['/plans', '/plans/0b6d2a1e-5d1f-4a8e-9a51-2f1e4b7d9c33', '/plans/abc?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const csp = cspOf(res.headers);
      expect(csp).toContain("script-src 'self' https://js.stripe.com");
      expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
      expect(csp).toContain("connect-src 'self' https://api.stripe.com");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
    }
    for (const url of ['/plansx', '/success', '/admin/plans']) {
      expect(cspOf((await t.app.inject({ method: 'GET', url })).headers), url).not.toMatch(/stripe/);
    }
  });

  it('sends HSTS only when the request came over TLS through the trusted proxy', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const tls = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('ignores X-Forwarded-Proto when no proxy is trusted', async () => {
    const direct = await createTestApp();
    try {
      const res = await direct.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await direct.close();
    }
  });

  it('marks every API answer no-store, success or failure, and leaves the docs cacheable', async () => {
    const answers = [
      await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' }),
      await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/users/all' }),
      await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/patient/all' }),
      await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/users/not-a-uuid' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/users/all' }),
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/login',
        payload: { email: 'a@b.co', password: 'wrong' },
      }),
      await t.app.inject({ method: 'GET', url: '/api/health' }),
    ];
    for (const res of answers) expect(res.headers['cache-control'], res.body.slice(0, 80)).toBe('no-store');
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.headers['cache-control']).not.toBe('no-store');
  });
});
