import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '#api/db/rows-of.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Real rows, written by the API's own audit writer.
  const token = await t.login();
  await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
  await t.app.inject({ method: 'GET', url: '/api/v1/admin/profile' });
  await t.app.audit.flush();
});
afterAll(() => t.close());

const count = async (table: 'access_logs' | 'error_logs') => {
  const result = await t.database.db.execute<{ n: number }>(
    sql.raw(`select count(*)::int as n from ${table}`),
  );
  return rowsOf<{ n: number }>(result)[0]!.n;
};

/** The driver wraps the database error; the trigger's text is in the error or its cause. */
const failure = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (err) {
    const e = err as { message?: string; cause?: { message?: string } };
    return `${e.message ?? ''} ${e.cause?.message ?? ''}`;
  }
  return null;
};

describe('the audit trail is append-only', () => {
  it('has rows to protect', async () => {
    expect(await count('access_logs')).toBeGreaterThan(0);
    expect(await count('error_logs')).toBeGreaterThan(0);
  });

  it("refuses UPDATE, DELETE and TRUNCATE through the app's own database client", async () => {
    const before = { access: await count('access_logs'), error: await count('error_logs') };
    const attempts = [
      () => t.database.db.update(accessLogs).set({ userEmail: 'someone-else@example.com' }),
      () => t.database.db.update(errorLogs).set({ message: 'nothing happened' }),
      () => t.database.db.delete(accessLogs),
      () => t.database.db.delete(errorLogs),
      () => t.database.db.execute(sql`truncate access_logs`),
      () => t.database.db.execute(sql`truncate error_logs`),
    ];
    for (const attempt of attempts)
      expect(await failure(attempt)).toMatch(
        /audit rows are append-only: (UPDATE|DELETE|TRUNCATE) on (access|error)_logs/,
      );
    expect(await count('access_logs')).toBe(before.access);
    expect(await count('error_logs')).toBe(before.error);
    const changed = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from access_logs where user_email = 'someone-else@example.com'`,
    );
    expect(rowsOf<{ n: number }>(changed)[0]!.n).toBe(0);
  });

  it('still takes new rows', async () => {
    const before = await count('access_logs');
    await t.database.db.insert(accessLogs).values({ resource: 'GET /api/test', userEmail: 'a@example.com' });
    expect(await count('access_logs')).toBe(before + 1);
  });

  it('leaves no role but the owner with UPDATE, DELETE or TRUNCATE on the log tables', async () => {
    const result = await t.database.db.execute<{ grantee: string }>(sql`
      select p.grantee from information_schema.role_table_grants p
      join pg_tables tb on tb.tablename = p.table_name and tb.schemaname = p.table_schema
      where p.table_name in ('access_logs', 'error_logs') and p.privilege_type in ('UPDATE', 'DELETE', 'TRUNCATE')
        and p.grantee <> tb.tableowner`);
    expect(rowsOf(result)).toEqual([]);
  });
});
