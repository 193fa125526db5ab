import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { bootstrap } from '#api/bootstrap.ts';
import { openDatabase } from '#api/db/client.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { mfaAuthenticators, mfaRecoveryCodes } from '#api/db/schema/mfa.ts';
import { users } from '#api/db/schema/users.ts';
import { base32Decode, totp } from '#api/lib/totp.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { addAdmin } from './mfa-test-helpers.ts';
import { operatorResetMfa, operatorResetResource } from './operator-reset-mfa.ts';

const password = 'Operator-Passw0rd!';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string) =>
  t.app.inject({ method: 'POST', url: apiPaths.login, payload: { email, password } });

/** An admin who enrolled through the profile routes, as a user would. */
async function enrolledAdmin(email: string) {
  const id = await addAdmin(t, email, password);
  const token = (await login(email)).json().data.accessToken as string;
  const setup = await t.injectAs(token, { method: 'POST', url: apiPaths.profileMfaSetup });
  const confirm = await t.injectAs(token, {
    method: 'POST',
    url: apiPaths.profileMfaConfirm,
    payload: { code: totp(base32Decode(setup.json().data.manualKey), t.clock.now.getTime()) },
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
  t.clock.advance(30_000);
  return { id, token };
}

describe('the operator resets a two-step sign-in from the command line', () => {
  it('removes the authenticator and codes, signs the user out, and records it; sign-in then needs only the password', async () => {
    const { id, token } = await enrolledAdmin('lost-phone@example.test');
    expect((await login('lost-phone@example.test')).json().data).toMatchObject({ mfa: 'verify' });

    const result = await operatorResetMfa(t.database.db, '  Lost-Phone@Example.test ', t.clock.now);
    expect(result).toEqual({ outcome: 'reset', email: 'lost-phone@example.test', sessionsEnded: 1 });

    expect(
      await t.database.db.select().from(mfaAuthenticators).where(eq(mfaAuthenticators.userId, id)),
    ).toEqual([]);
    expect(
      await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, id)),
    ).toEqual([]);
    expect((await t.injectAs(token, { method: 'GET', url: apiPaths.profileMfa })).statusCode).toBe(401);
    expect((await login('lost-phone@example.test')).json().data.accessToken).toEqual(expect.any(String));

    const rows = await t.database.db
      .select({
        resource: accessLogs.resource,
        event: accessLogs.event,
        statusCode: accessLogs.statusCode,
        userId: accessLogs.userId,
      })
      .from(accessLogs)
      // Rows no admin's request wrote (the console's own writes naming this user have an admin's id).
      .where(and(eq(accessLogs.recordKind, 'user'), eq(accessLogs.recordId, id), isNull(accessLogs.userId)));
    expect(rows).toEqual([
      { resource: operatorResetResource, event: 'mfa.reset.success', statusCode: 200, userId: null },
    ]);
  });

  it('says when there is nothing to reset or no such user, and changes nothing', async () => {
    expect(await operatorResetMfa(t.database.db, 'lost-phone@example.test', t.clock.now)).toEqual({
      outcome: 'nothing-to-reset',
      email: 'lost-phone@example.test',
    });
    expect(await operatorResetMfa(t.database.db, 'nobody@example.test', t.clock.now)).toEqual({
      outcome: 'no-such-user',
      email: 'nobody@example.test',
    });
  });
});

describe('npm run admin:reset-mfa', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
  const cli = (dataDir: string, ...args: string[]) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', 'apps/api/src/modules/auth/operator-reset-mfa-cli.ts', ...args],
      {
        cwd: root,
        encoding: 'utf8',
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          JWT_SECRET: 'operator-cli-test-secret-0123456789abcdef',
        },
        timeout: 60_000,
      },
    );

  it('resets an enrolled user in the embedded database, and exits 1 for an unknown email and 2 without one', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'reset-mfa-cli-'));
    try {
      const database = await openDatabase({ dataDir });
      await bootstrap(database.db, { adminEmail: 'only-admin@example.test', adminPassword: password });
      const [admin] = await database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, 'only-admin@example.test'));
      await database.db
        .insert(mfaAuthenticators)
        .values({ userId: admin!.id, secretEnc: 'unreadable after a secret change', enabledAt: new Date() });
      await database.close();

      const reset = cli(dataDir, 'only-admin@example.test');
      expect(reset.status, reset.stderr).toBe(0);
      expect(reset.stdout).toContain('Two-step sign-in of only-admin@example.test was reset');

      const unknown = cli(dataDir, 'nobody@example.test');
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain('No user has the email nobody@example.test.');
      expect(cli(dataDir).status).toBe(2);

      const after = await openDatabase({ dataDir });
      expect(await after.db.select().from(mfaAuthenticators)).toEqual([]);
      await after.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
