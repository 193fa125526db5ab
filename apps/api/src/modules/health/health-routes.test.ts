import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health, docs and unknown routes', () => {
  it('reports ready when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: { status: 'ready', database: 'up' } });
  });

  it('answers an unknown API route with a JSON 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/admin/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      code: 404,
      msg: 'Route not found: GET /api/v1/admin/nothing-here',
      data: null,
    });
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/admin/login', '/api/v1/admin/profile', '/api/health']),
    );
    expect(doc.paths['/api/v1/admin/login'].post.requestBody).toBeDefined();
  });

  it('sets security headers with a CSP that allows only our origin (Stripe only on the checkout page)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('stripe');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('serving the built console', () => {
  it('serves index.html for app paths, hashed assets with a long cache, and JSON 404 for unknown API paths', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const path = await import('node:path');
    const dist = path.join(t.config.dataDir, 'web-dist');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    const web = await createTestApp({ WEB_DIST: dist });
    try {
      const page = await web.app.inject({ method: 'GET', url: '/admin/device?page=2' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      const home = await web.app.inject({ method: 'GET', url: '/' });
      expect(home.statusCode).toBe(200);
      expect(home.headers['content-type']).toContain('text/html');
      expect(home.headers['cache-control']).toBe('no-cache');
      writeFileSync(path.join(dist, '.build-hash'), 'abc');
      expect(
        (await web.app.inject({ method: 'GET', url: '/.build-hash' })).headers['content-type'],
      ).toContain('text/html');
      const asset = await web.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
      // A file added after start (a rebuild) is served without a restart.
      writeFileSync(path.join(dist, 'assets', 'later-def456.js'), 'console.log(2)');
      expect((await web.app.inject({ method: 'GET', url: '/assets/later-def456.js' })).statusCode).toBe(200);
      const api = await web.app.inject({ method: 'GET', url: '/api/v1/admin/nothing-here' });
      expect(api.statusCode).toBe(404);
      expect(api.json().code).toBe(404);
    } finally {
      await web.close();
    }
  });
});
