import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { bootstrap } from '#api/bootstrap.ts';
import { openDatabase, type Database } from '#api/db/client.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { sessions, users } from '#api/db/schema/users.ts';
import { listenForOperator } from '#api/lib/operator-socket.ts';
import { verifyPassword } from '#api/lib/passwords.ts';
import { createTestApp, scratchDatabase, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { operatorResetPassword, operatorResetPasswordResource } from './operator-reset-password.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the operator resets a lost password (issue 35 item 4)', () => {
  it('gives a new one-time password, ends every session of the user, voids the old password and records it', async () => {
    const [first, second] = [await t.login(), await t.login()];
    const result = await operatorResetPassword(t.database.db, '  ADMIN@example.com ', t.clock.now);
    expect(result).toEqual({
      outcome: 'reset',
      email: testAdmin.email,
      password: expect.stringMatching(/^[\w-]{16}$/),
      sessionsEnded: 2,
    });
    for (const token of [first, second])
      expect((await t.injectAs(token, { method: 'GET', url: apiPaths.profile })).statusCode).toBe(401);
    const old = await t.app.inject({ method: 'POST', url: apiPaths.login, payload: testAdmin });
    expect(old.statusCode).toBe(401);
    const token = await t.login(testAdmin.email, result.outcome === 'reset' ? result.password : '');
    expect((await t.injectAs(token, { method: 'GET', url: apiPaths.profile })).statusCode).toBe(200);

    const [admin] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, testAdmin.email));
    const rows = await t.database.db
      .select({ resource: accessLogs.resource, event: accessLogs.event, userId: accessLogs.userId })
      .from(accessLogs)
      .where(
        and(eq(accessLogs.recordKind, 'user'), eq(accessLogs.recordId, admin!.id), isNull(accessLogs.userId)),
      );
    expect(rows).toEqual([
      { resource: operatorResetPasswordResource, event: 'password.reset.success', userId: null },
    ]);
  });

  it('says when no user has the email, and changes nothing', async () => {
    expect(await operatorResetPassword(t.database.db, 'nobody@example.test', t.clock.now)).toEqual({
      outcome: 'no-such-user',
      email: 'nobody@example.test',
    });
  });
});

describe('npm run admin:reset-password', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
  /** The command as an operator runs it; asynchronous, so a server in this process can answer it. */
  const cli = (env: Record<string, string>, ...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'apps/api/src/modules/auth/operator-reset-password-cli.ts', ...args],
        {
          cwd: root,
          env: {
            ...process.env,
            DATABASE_URL: '',
            JWT_SECRET: 'operator-cli-test-secret-0123456789abcdef',
            ...env,
          },
        },
      );
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  const printedPassword = (stdout: string) => /One-time password: (\S+)/.exec(stdout)?.[1] ?? '';
  const hashOf = async (database: Database, email: string) =>
    (await database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email)))[0]!
      .hash;

  it('on the embedded database, asks the running server, and opens the database itself when none runs', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'reset-password-cli-'));
    try {
      let database = await openDatabase({ dataDir });
      await bootstrap(database.db, {
        adminEmail: 'only-admin@example.test',
        adminPassword: 'Forgotten-Passw0rd',
      });
      // What server.ts starts next to the embedded database.
      const operator = await listenForOperator(
        dataDir,
        { 'reset-password': (request) => operatorResetPassword(database.db, request.email, new Date()) },
        { warn: (message) => expect.fail(message) },
      );
      const viaServer = await cli({ DATA_DIR: dataDir }, '--email', 'only-admin@example.test');
      expect(viaServer.status, viaServer.stderr).toBe(0);
      expect(viaServer.stdout).toContain('Password of only-admin@example.test was reset');
      expect(
        await verifyPassword(
          await hashOf(database, 'only-admin@example.test'),
          printedPassword(viaServer.stdout),
        ),
      ).toBe(true);

      const unknown = await cli({ DATA_DIR: dataDir }, '--email=nobody@example.test');
      expect([unknown.status, unknown.stderr.trim()]).toEqual([
        1,
        'No user has the email nobody@example.test.',
      ]);
      expect((await cli({ DATA_DIR: dataDir }, 'only-admin@example.test')).status).toBe(2);

      // The server stopped (its socket file may stay behind, as after a crash): the command opens the database.
      await operator.close();
      await database.close();
      const direct = await cli({ DATA_DIR: dataDir }, '--email', 'only-admin@example.test');
      expect(direct.status, direct.stderr).toBe(0);
      database = await openDatabase({ dataDir });
      expect(
        await verifyPassword(
          await hashOf(database, 'only-admin@example.test'),
          printedPassword(direct.stdout),
        ),
      ).toBe(true);
      await database.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it.runIf(process.env.DATABASE_URL)(
    'on PostgreSQL, opens the database itself while a server has it open, and ends the sessions it holds',
    async () => {
      const scratch = await scratchDatabase(process.env.DATABASE_URL!);
      const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
      try {
        await bootstrap(database.db, {
          adminEmail: 'pg-admin@example.test',
          adminPassword: 'Forgotten-Passw0rd',
        });
        const [admin] = await database.db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.email, 'pg-admin@example.test'));
        await database.db
          .insert(sessions)
          .values({ userId: admin!.id, expiresAt: new Date(Date.now() + 3_600_000), ip: '127.0.0.1' });
        const reset = await cli({ DATABASE_URL: scratch.url }, '--email', 'pg-admin@example.test');
        expect(reset.status, reset.stderr).toBe(0);
        expect(reset.stdout).toContain('1 session(s) signed out');
        expect(
          await verifyPassword(
            await hashOf(database, 'pg-admin@example.test'),
            printedPassword(reset.stdout),
          ),
        ).toBe(true);
        expect(
          await database.db
            .select()
            .from(sessions)
            .where(and(eq(sessions.userId, admin!.id), isNull(sessions.revokedAt))),
        ).toEqual([]);
      } finally {
        await database.close();
        await scratch.drop();
      }
    },
    180_000,
  );
});
