import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('answers the router itself gives', () => {
  it('answers a URL with broken percent-encoding with a 400 envelope that does not echo the URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/admin/roles/x%ED%B0%80y' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, msg: 'The address is malformed', data: null });
  });

  it('answers an over-long path parameter with a 414 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/app/updates/${'x'.repeat(5000)}/apk` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ code: 414, msg: 'A part of the address is too long', data: null });
  });

  it('answers a subscription id holding a NUL byte with a 400, not a database error', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/admin/subscrption/detail/a%00b' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('id must not contain a NUL character');
  });

  it('answers a subscription id that is not base64url with 404', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/subscrption/detail/${encodeURIComponent("ä' or 1=1")}`,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('This payment link is not valid.');
  });
});
