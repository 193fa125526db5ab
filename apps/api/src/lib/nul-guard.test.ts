import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { nulPath } from './nul-guard.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

describe('NUL characters in input', () => {
  it('refuses one in a query value with a 400 naming the field (it was a 500 on PostgreSQL)', async () => {
    const res = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/error-logs/all?userId=%00' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('userId must not contain a NUL character');
  });

  it('refuses one in a JSON field, however deep, and in a path parameter', async () => {
    const body = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/roles',
      payload: { roleName: 'a\u0000b', type: 'admin' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().msg).toBe('roleName must not contain a NUL character');
    const param = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/machine/a%00b' });
    expect(param.statusCode).toBe(400);
    expect(param.json().msg).toBe('id must not contain a NUL character');
  });

  it('lets ordinary text, including other control characters and emoji, through to the schema', async () => {
    const res = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/roles',
      payload: { roleName: 'Ops 👩‍⚕️\ttab', type: 'admin' },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('does not walk a body that is a stream (a file sent as the body), which is no text', () => {
    // Over a real socket such a body's properties reach the socket and the server: walking them
    // froze the API on the first diagnostics upload (commands-simulator.test.ts sends one).
    const file = Readable.from([Buffer.from('a\u0000b')]);
    Object.assign(file, { note: 'x\u0000y' });
    expect(nulPath(file)).toBeNull();
    expect(nulPath({ a: [{ b: 'x\u0000y' }] })).toEqual(['a', 0, 'b']);
  });
});
