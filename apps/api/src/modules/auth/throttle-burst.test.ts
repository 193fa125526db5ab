import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { users } from '#api/db/schema/users.ts';
import { hashPassword } from '#api/lib/passwords.ts';
import { base32Decode, totp } from '#api/lib/totp.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { firstAdminRoleId } from '#api/test/admin-role.ts';

/*
 * Parallel bursts against every throttle that guards a password or a code (issue 18, item 1): the
 * limit is counted before the work, atomically, so however many requests arrive at once no more
 * than the limit are evaluated. Wrong answers (401/400) are the evaluated ones; the rest must be 429.
 * Runs on PGlite, on PostgreSQL (DATABASE_URL) and with the counters in Redis (vitest.redis.config.ts).
 */

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const burst = 60;
const statuses = async (requests: Array<Promise<{ statusCode: number }>>) => {
  const counts: Record<number, number> = {};
  for (const res of await Promise.all(requests)) counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
  return counts;
};

async function addAdmin(email: string, password: string) {
  const roleId = await firstAdminRoleId(t.database.db);
  await t.database.db
    .insert(users)
    .values({ email, userName: 'burst', passwordHash: await hashPassword(password), roleId });
}

describe('throttles under a parallel burst', () => {
  it('checks at most 5 passwords when 60 wrong sign-ins for one account arrive at once from one address', async () => {
    const counts = await statuses(
      Array.from({ length: burst }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.login,
          payload: { email: testAdmin.email, password: `wrong-${i}` },
          remoteAddress: '198.51.100.60',
        }),
      ),
    );
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeGreaterThan(0);
    expect(counts[401], JSON.stringify(counts)).toBeLessThanOrEqual(5);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(burst);
  });

  it('checks at most 30 passwords when 60 wrong sign-ins for 60 accounts arrive at once from one address', async () => {
    const counts = await statuses(
      Array.from({ length: burst }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.login,
          payload: { email: `nobody-${i}@example.test`, password: 'wrong-password' },
          remoteAddress: '198.51.100.61',
        }),
      ),
    );
    expect(counts[401], JSON.stringify(counts)).toBeLessThanOrEqual(30);
    expect(counts[429], JSON.stringify(counts)).toBeGreaterThanOrEqual(30);
  });

  it('still signs in with the right password once a burst has been answered', async () => {
    await statuses(
      Array.from({ length: 10 }, () =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.login,
          payload: { email: testAdmin.email, password: 'wrong' },
          remoteAddress: '198.51.100.62',
        }),
      ),
    );
    // From another address: the account back-off is at most 30 s, then the owner gets in.
    t.clock.advance(31_000);
    expect((await t.login()).length).toBeGreaterThan(10);
  });

  it('checks at most 5 two-step codes when 60 wrong ones for one step token arrive at once', async () => {
    await addAdmin('burst-mfa@example.test', 'Burst-Passw0rd');
    const token = await t.login('burst-mfa@example.test', 'Burst-Passw0rd');
    const setup = await t.injectAs(token, { method: 'POST', url: apiPaths.profileMfaSetup });
    const secret = base32Decode(setup.json().data.manualKey);
    const confirm = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.profileMfaConfirm,
      payload: { code: totp(secret, t.clock.now.getTime()) },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const step = await t.app.inject({
      method: 'POST',
      url: apiPaths.login,
      payload: { email: 'burst-mfa@example.test', password: 'Burst-Passw0rd' },
    });
    const mfaToken = step.json().data.mfaToken as string;
    const right = totp(secret, t.clock.now.getTime() + 30_000);
    const counts = await statuses(
      Array.from({ length: burst }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.loginMfa,
          payload: { mfaToken, code: String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0') },
          remoteAddress: `198.51.100.${70 + (i % 20)}`,
        }),
      ),
    );
    expect(counts[401], JSON.stringify(counts)).toBeLessThanOrEqual(5);
    expect(counts[429], JSON.stringify(counts)).toBeGreaterThanOrEqual(burst - 5);
  });

  it('checks at most 5 current passwords when 60 wrong password changes arrive at once', async () => {
    const token = await t.login();
    const counts = await statuses(
      Array.from({ length: burst }, (_, i) =>
        t.injectAs(token, {
          method: 'POST',
          url: '/api/v1/admin/change-password',
          payload: { old_password: `wrong-${i}`, new_password: 'Another-Passw0rd' },
        }),
      ),
    );
    expect(counts[400], JSON.stringify(counts)).toBeLessThanOrEqual(5);
    expect(counts[429], JSON.stringify(counts)).toBeGreaterThanOrEqual(burst - 5);
  });

  it('checks at most 5 OTPs for one email when 60 wrong ones arrive at once from many addresses', async () => {
    const counts = await statuses(
      Array.from({ length: burst }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.verifyEmail,
          payload: { email: testAdmin.email, otp: String(100000 + i) },
          remoteAddress: `198.51.100.${100 + i}`,
        }),
      ),
    );
    expect(counts[400], JSON.stringify(counts)).toBeLessThanOrEqual(5);
    expect(counts[429], JSON.stringify(counts)).toBeGreaterThanOrEqual(burst - 5);
  });

  it('mails one code when 60 forgot-password requests for one email arrive at once', async () => {
    const counts = await statuses(
      Array.from({ length: burst }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.forgotPassword,
          payload: { email: testAdmin.email },
          remoteAddress: `198.51.100.${100 + i}`,
        }),
      ),
    );
    await t.app.account.idle();
    await t.app.mailer.idle();
    // One code per 30 s to one address: every other request in the burst is answered without one.
    expect(counts[200] ?? 0, JSON.stringify(counts)).toBe(burst);
    const { mailOutbox } = await import('#api/db/schema/mail.ts');
    const sent = await t.database.db.$count(mailOutbox, eq(mailOutbox.to, testAdmin.email));
    expect(sent).toBe(1);
  });
});
