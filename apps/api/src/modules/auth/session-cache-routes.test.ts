import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '#api/db/schema/users.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());

const profile = () => t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });

describe('sessions held in memory on the embedded database (decision 042)', () => {
  it('answers a known session from memory on PGlite, and reads it every time on PostgreSQL', async () => {
    expect((await profile()).statusCode).toBe(200);
    // A last-seen time moved back in SQL is not announced (it is written once a minute): only a
    // server that reads the session on every request sees it as idle.
    await t.database.db.update(sessions).set({ lastSeenAt: new Date(t.clock.now.getTime() - 86_400_000) });
    expect((await profile()).statusCode).toBe(t.database.kind === 'pglite' ? 200 : 401);
  });

  it('a session revoked in SQL is refused on its next request, held in memory or not', async () => {
    const fresh = await t.login();
    const request = () => t.injectAs(fresh, { method: 'GET', url: '/api/v1/admin/profile' });
    expect((await request()).statusCode).toBe(200);
    expect((await request()).statusCode).toBe(200);
    await t.database.db.update(sessions).set({ revokedAt: t.clock.now });
    expect((await request()).statusCode).toBe(401);
  });
});
