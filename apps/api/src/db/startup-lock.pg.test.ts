import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bootstrap } from '../bootstrap.ts';
import { scratchDatabase } from '../test/test-app.ts';
import { openDatabase, type Database } from './client.ts';
import { rowsOf } from './rows-of.ts';

/*
 * Issue 32 finding 10 (the fix is issue 36's start-up lock): instances started at the same moment on
 * one empty PostgreSQL database. Before the lock, of five one came up; the others died in migrations
 * ("duplicate key value violates unique constraint pg_type_typname_nsp_index", "relation roles
 * already exists"), or two first admins were attempted. PostgreSQL only: PGlite is one process.
 */

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
const opened: Database[] = [];
beforeAll(async () => {
  scratch = await scratchDatabase(process.env.DATABASE_URL!);
});
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
  await scratch.drop();
});

it('ten instances starting together on an empty database all migrate and bootstrap, with one first admin', async () => {
  const starts = Array.from({ length: 10 }, async () => {
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
    opened.push(database);
    return database.startupLock(() =>
      bootstrap(database.db, { adminEmail: 'first@example.com', adminPassword: 'First-Passw0rd' }),
    );
  });
  const results = await Promise.allSettled(starts);
  expect(results.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'));
  const created = results.filter((r) => r.status === 'fulfilled' && r.value.created);
  expect(created).toHaveLength(1);
  const [{ admins, roles }] = rowsOf<{ admins: number; roles: number }>(
    await opened[0]!.db.execute(
      sql`select (select count(*)::int from users) as admins, (select count(*)::int from roles) as roles`,
    ),
  ) as [{ admins: number; roles: number }];
  // The spec's app and admin roles, the first admin's, and the two fixed clinic roles (migration 0057).
  expect({ admins, roles }).toEqual({ admins: 1, roles: 6 });
});
