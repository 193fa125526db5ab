import { desc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { ConfigError, loadConfig } from '../config.ts';
import { accessLogs } from '../db/schema/logs.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/*
 * TRUST_PROXY (issue 18, item 3): the client's address is what the trusted proxies say it is, never
 * what the client itself wrote at the front of X-Forwarded-For. Seen where it matters: the audit
 * trail's location of a failed sign-in (the throttles key on the same request.ip).
 */

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

let n = 0;
/** The address the audit trail kept for one failed sign-in sent with these headers from `remoteAddress`. */
async function seenAddress(t: TestApp, remoteAddress: string, forwardedFor?: string) {
  const email = `proxy-${++n}@example.test`;
  const res = await t.app.inject({
    method: 'POST',
    url: apiPaths.login,
    payload: { email, password: 'wrong-password' },
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  expect(res.statusCode).toBe(401);
  await t.app.audit.flush();
  const [row] = await t.database.db
    .select({ location: accessLogs.location })
    .from(accessLogs)
    .where(eq(accessLogs.userEmail, email))
    .orderBy(desc(accessLogs.createdAt))
    .limit(1);
  return row?.location;
}

async function appWith(trustProxy: string | undefined) {
  const t = await createTestApp(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy });
  apps.push(t);
  return t;
}

describe('the client address behind proxies', () => {
  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const t = await appWith(undefined);
    expect(await seenAddress(t, '198.51.100.10', '6.6.6.6')).toBe('198.51.100.10');
  });

  it('with TRUST_PROXY=1 takes the address the one proxy saw, not the hops the client wrote before it', async () => {
    const t = await appWith('1');
    // The client wrote 6.6.6.6 and 7.7.7.7; the proxy (10.0.0.2) appended the address it saw.
    expect(await seenAddress(t, '10.0.0.2', '6.6.6.6, 7.7.7.7, 203.0.113.9')).toBe('203.0.113.9');
  });

  it('with TRUST_PROXY=2 takes the address the outer of two proxies saw', async () => {
    const t = await appWith('2');
    expect(await seenAddress(t, '10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.7')).toBe('203.0.113.9');
  });

  it('with a list of proxies believes only them: a spoofed chain from elsewhere is ignored', async () => {
    const t = await appWith('10.0.0.0/8,127.0.0.1');
    expect(await seenAddress(t, '10.1.2.3', '6.6.6.6, 203.0.113.9, 10.0.0.7')).toBe('203.0.113.9');
    expect(await seenAddress(t, '192.0.2.50', '6.6.6.6')).toBe('192.0.2.50');
  });

  it('refuses "trust everything" and anything that is not a hop count or proxy addresses, naming TRUST_PROXY', () => {
    const base = { DATA_DIR: '/tmp/trust-proxy-test', JWT_SECRET: 'x'.repeat(32) };
    for (const value of ['true', 'yes', '10.0.0.0/33', '10.0.0.1,not-an-ip', '-1'])
      expect(() => loadConfig({ ...base, TRUST_PROXY: value }), value).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '::1']);
  });
});
