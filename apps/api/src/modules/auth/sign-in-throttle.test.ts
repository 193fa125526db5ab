import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

// A fresh app (fresh counters) per test: each one plays out an attack from the start.
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const attempt = (password: string, remoteAddress: string, email: string = testAdmin.email) =>
  t.app.inject({ method: 'POST', url: '/api/v1/admin/login', payload: { email, password }, remoteAddress });
const retryAfter = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);

/** Fails once from each address, waiting out any back-off first, like a patient attacker would. */
async function attack(failures: number, addresses: string[], email: string = testAdmin.email) {
  let longest = 0;
  for (let i = 0; i < failures; i++) {
    let res = await attempt(`wrong-${i}`, addresses[i % addresses.length]!, email);
    if (res.statusCode === 429) {
      longest = Math.max(longest, retryAfter(res));
      t.clock.advance(retryAfter(res) * 1000);
      res = await attempt(`wrong-${i}`, addresses[i % addresses.length]!, email);
    }
    expect(res.statusCode, `failure ${i}`).toBe(401);
  }
  return longest;
}

const botnet = Array.from({ length: 20 }, (_, i) => `203.0.113.${i + 1}`);

describe('sign-in throttling', () => {
  it('blocks the failing address for that account for 15 minutes, even with the right password, then lets it in', async () => {
    await attack(5, ['198.51.100.7']);
    const blocked = await attempt(testAdmin.password, '198.51.100.7');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().msg).toBe('Too many attempts. Please try again later.');
    expect(retryAfter(blocked)).toBeGreaterThan(14 * 60);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await attempt(testAdmin.password, '198.51.100.7')).statusCode).toBe(200);
  });

  it('holds a clean address back only by the short account back-off, then signs the admin in', async () => {
    await attack(5, ['198.51.100.7']);
    const first = await attempt(testAdmin.password, '192.0.2.10');
    expect(first.statusCode).toBe(429);
    expect(retryAfter(first)).toBeLessThanOrEqual(30);
    t.clock.advance(retryAfter(first) * 1000);
    expect((await attempt(testAdmin.password, '192.0.2.10')).statusCode).toBe(200);
  });

  it('caps the account back-off at 30 seconds however long an attack from many addresses goes on', async () => {
    // 1, 2, 4, 8, 16 seconds after failures 5 to 9, then 30 seconds (not 32, 64 ...) from the 10th on.
    const longest = await attack(16, botnet);
    expect(longest).toBe(30);
    const admin = await attempt(testAdmin.password, '192.0.2.10');
    expect(admin.statusCode).toBe(429);
    expect(retryAfter(admin)).toBeLessThanOrEqual(30);
    t.clock.advance(retryAfter(admin) * 1000);
    expect((await attempt(testAdmin.password, '192.0.2.10')).statusCode).toBe(200);
  });

  it('lets the admin in at once from an address they signed in from before, during an attack', async () => {
    expect((await attempt(testAdmin.password, '192.0.2.10')).statusCode).toBe(200);
    await attack(12, botnet);
    // The attacker's own next try waits; the admin's known address does not.
    expect((await attempt('wrong-again', '203.0.113.99')).statusCode).toBe(429);
    expect((await attempt(testAdmin.password, '192.0.2.10')).statusCode).toBe(200);
  });

  it('answers an unknown email exactly like a real one, so the back-off does not reveal accounts', async () => {
    await attack(6, botnet, 'nobody@example.com');
    await attack(6, botnet, testAdmin.email);
    const unknown = await attempt('x-x-x-x', '192.0.2.50', 'nobody@example.com');
    const known = await attempt('x-x-x-x', '192.0.2.50');
    expect(unknown.statusCode).toBe(429);
    expect(known.statusCode).toBe(429);
    expect(unknown.json()).toEqual(known.json());
  });

  it('forgets the account back-off after a correct sign-in', async () => {
    await attack(5, botnet);
    const wait = await attempt(testAdmin.password, '192.0.2.10');
    t.clock.advance(retryAfter(wait) * 1000);
    expect((await attempt(testAdmin.password, '192.0.2.10')).statusCode).toBe(200);
    // A single new failure does not bring the back-off back: the streak starts again from zero.
    expect((await attempt('wrong', '203.0.113.200')).statusCode).toBe(401);
    expect((await attempt(testAdmin.password, '192.0.2.11')).statusCode).toBe(200);
  });

  it('blocks one address spraying many accounts', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++)
      last = (await attempt('x-x-x-x', '198.51.100.9', `user${i}@example.com`)).statusCode;
    expect(last).toBe(429);
    expect((await attempt(testAdmin.password, '192.0.2.10')).statusCode).toBe(200);
  });
});
