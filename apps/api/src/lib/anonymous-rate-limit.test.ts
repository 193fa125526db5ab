import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { apiPaths } from '@app/contract/paths';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

const flooder = '203.0.113.7';
const bystander = '198.51.100.9';

async function errorRowsFrom(t: TestApp, address: string) {
  await t.app.audit.flush();
  return t.database.db.select().from(errorLogs).where(eq(errorLogs.location, address));
}

describe('anonymous rate limit and aggregated failures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ANON_RATE_PER_MINUTE: '60' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a flood from one address with 429s and writes only a handful of rows', async () => {
    const statuses: number[] = [];
    let lastLimited: { body: unknown; retryAfter: unknown } | null = null;
    for (let i = 0; i < 500; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: apiPaths.subscriptionDetail('no-such-link'),
        remoteAddress: flooder,
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) lastLimited = { body: res.json(), retryAfter: res.headers['retry-after'] };
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(440);
    expect(statuses.slice(0, 60).every((s) => s !== 429)).toBe(true);
    expect(lastLimited?.body).toEqual({
      code: 429,
      msg: expect.stringMatching(/^Too many requests from this address: try again in \d+ seconds?$/),
      data: null,
    });
    expect(Number(lastLimited?.retryAfter)).toBeGreaterThan(0);

    // While the minute is open: one row per kind of failure.
    expect(await errorRowsFrom(t, flooder)).toHaveLength(2);
    // The minute closes (the next failure from that address closes it): one summary per kind.
    t.clock.advance(61_000);
    await t.app.inject({ method: 'GET', url: apiPaths.subscriptionDetail('x'), remoteAddress: flooder });
    const rows = await errorRowsFrom(t, flooder);
    expect(rows.length).toBeLessThanOrEqual(5);
    const messages = rows.map((r) => r.message);
    expect(messages).toContain('439 more identical failures from this address in the last minute');
    expect(messages.filter((m) => /^\d+ more identical failures/.test(m ?? ''))).toHaveLength(2);
  });

  it('leaves another address unaffected', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: apiPaths.subscriptionDetail('no-such-link'),
      remoteAddress: bystander,
    });
    expect(res.statusCode).not.toBe(429);
    expect(await errorRowsFrom(t, bystander)).toHaveLength(1);
  });

  it('never limits the Stripe webhook', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: apiPaths.subscriptionWebhook,
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=bad' },
        payload: '{}',
        remoteAddress: '192.0.2.44',
      });
      expect(res.statusCode).not.toBe(429);
    }
  });

  it('does not limit signed-in console calls', async () => {
    const token = await t.login();
    for (let i = 0; i < 80; i++) {
      const res = await t.injectAs(token, { method: 'GET', url: apiPaths.usersAll, remoteAddress: flooder });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('sign-in under the anonymous limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ANON_RATE_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps every sign-in attempt that ran as a security event, and none of the refused ones', async () => {
    const address = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: apiPaths.login,
        payload: { email: 'admin@example.com', password: `wrong-${i}` },
        remoteAddress: address,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    await t.app.audit.flush();
    const attempts = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(accessLogs)
      .where(and(eq(accessLogs.location, address), eq(accessLogs.event, 'login.failure')));
    expect(attempts[0]!.n).toBe(3);
    // The two-step code route shares the sign-in allowance.
    const code = await t.app.inject({
      method: 'POST',
      url: apiPaths.loginMfa,
      payload: { mfaToken: 'x', code: '123456' },
      remoteAddress: address,
    });
    expect(code.statusCode).toBe(429);
  });
});
