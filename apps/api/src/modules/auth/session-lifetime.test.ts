import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#api/config.ts';
import { sessions } from '#api/db/schema/users.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

const minutes = (n: number) => n * 60_000;
const expired = { code: 401, msg: 'Your session has expired. Please sign in again.', data: null };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_IDLE_MINUTES: '30', SESSION_HOURS: '2' });
});
afterAll(() => t.close());

const profile = (token: string) => t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
const lastSeen = async (token: string) => {
  const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
  const [row] = await t.database.db
    .select({ lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, sid));
  return row!.lastSeenAt.getTime();
};

describe('idle timeout', () => {
  it('keeps a session alive while it is used and refuses it after 30 idle minutes with the expired-session 401', async () => {
    const token = await t.login();
    t.clock.advance(minutes(29));
    expect((await profile(token)).statusCode).toBe(200);
    t.clock.advance(minutes(29));
    expect((await profile(token)).statusCode).toBe(200);
    t.clock.advance(minutes(30));
    const refused = await profile(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(expired);
  });

  it('keeps an idle session dead: it is revoked, not merely late', async () => {
    const token = await t.login();
    t.clock.advance(minutes(31));
    expect((await profile(token)).statusCode).toBe(401);
    t.clock.advance(-minutes(31));
    try {
      expect((await profile(token)).statusCode).toBe(401);
    } finally {
      t.clock.advance(minutes(31));
    }
  });

  it('writes last_seen_at at most once a minute, not on every request', async () => {
    const token = await t.login();
    const first = await lastSeen(token);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(10_000);
      expect((await profile(token)).statusCode).toBe(200);
    }
    expect(await lastSeen(token)).toBe(first);
    t.clock.advance(31_000);
    expect((await profile(token)).statusCode).toBe(200);
    expect(await lastSeen(token)).toBe(t.clock.now.getTime());
  });

  it('tells the client how long the session has left on every authenticated answer', async () => {
    const token = await t.login();
    expect((await profile(token)).headers['x-session-expires-in']).toBe('1800');
    t.clock.advance(30_000);
    // Not written within the minute, so the deadline did not move: 30 s less.
    expect((await profile(token)).headers['x-session-expires-in']).toBe('1770');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: 'x@example.com', password: 'nope-nope' },
    });
    expect(anonymous.headers['x-session-expires-in']).toBeUndefined();
  });

  it('GET session reports the idle timeout and counts as activity, even within the minute ("Stay signed in")', async () => {
    const token = await t.login();
    t.clock.advance(40_000);
    const res = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/session' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.idleTimeoutSeconds).toBe(1800);
    expect(data.expiresInSeconds).toBe(1800);
    expect(res.headers['x-session-expires-in']).toBe('1800');
    expect(new Date(data.expiresAt).getTime()).toBe(t.clock.now.getTime() - 40_000 + minutes(120));
    expect(await lastSeen(token)).toBe(t.clock.now.getTime());
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/session' })).statusCode).toBe(401);
  });
});

describe('absolute lifetime', () => {
  it('ends a session after SESSION_HOURS however active it is', async () => {
    const token = await t.login();
    for (let i = 0; i < 5; i++) {
      t.clock.advance(minutes(20));
      expect((await profile(token)).statusCode, `after ${(i + 1) * 20} minutes`).toBe(200);
    }
    // 100 minutes in: the idle deadline (130) lies beyond the absolute end (120), so the header says 20 minutes.
    expect((await profile(token)).headers['x-session-expires-in']).toBe(String(20 * 60));
    t.clock.advance(minutes(20));
    const refused = await profile(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(expired);
  });
});

describe('SESSION_IDLE_MINUTES', () => {
  it('defaults to 30 and refuses a value too short for the one-minute warning, naming the variable', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: t.config.dataDir }).sessionIdleMinutes).toBe(
      30,
    );
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), SESSION_IDLE_MINUTES: '0.1' })).toThrow(
      /SESSION_IDLE_MINUTES must be at least 0.5/,
    );
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), SESSION_IDLE_MINUTES: 'soon' })).toThrow(
      /SESSION_IDLE_MINUTES/,
    );
  });
});
