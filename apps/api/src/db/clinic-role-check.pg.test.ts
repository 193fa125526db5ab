import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scratchDatabase } from '../test/test-app.ts';
import { openDatabase } from './client.ts';
import { withCustomerScope } from '../lib/customer-scope.ts';
import { sql } from 'drizzle-orm';
import { rowsOf } from './rows-of.ts';

/*
 * Decision 090's production set-up, on PostgreSQL: the API connects as a role that is neither a
 * superuser nor the tables' owner, a member of console_clinic without inheriting it. Such a role sees
 * every row, and a scoped transaction only its customer's. A role that inherits console_clinic would
 * see nothing (the clinics' restrictive policy applies to it): the API refuses to start on it, saying
 * what to change. PostgreSQL only: PGlite is one process and its tests connect as the superuser.
 */

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
const role = `t_app_${randomBytes(4).toString('hex')}`;
const admin = async (text: string, url = scratch.url) => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
};
const asRole = () => Object.assign(new URL(scratch.url), { username: role, password: 'app' }).toString();

beforeAll(async () => {
  scratch = await scratchDatabase(process.env.DATABASE_URL!);
  await (await openDatabase({ databaseUrl: scratch.url, dataDir: null })).close();
  const name = new URL(scratch.url).pathname.slice(1);
  await admin(`create role ${role} login password 'app' nosuperuser`);
  await admin(`grant console_clinic to ${role}`);
  await admin(`grant create on database ${name} to ${role}`);
  for (const schema of ['public', 'drizzle', 'pgboss']) {
    await admin(`grant usage, create on schema ${schema} to ${role}`);
    await admin(`grant all on all tables in schema ${schema} to ${role}`);
    await admin(`grant all on all sequences in schema ${schema} to ${role}`);
  }
  await admin(
    `insert into customers (name, country) values ('Role Clinic A', 'France'), ('Role Clinic B', 'France')`,
  );
});
afterAll(async () => {
  await scratch.drop();
  await admin(`drop role if exists ${role}`, process.env.DATABASE_URL!);
});

it('refuses to start as a role that inherits console_clinic, and says what to change', async () => {
  await expect(openDatabase({ databaseUrl: asRole(), dataDir: null })).rejects.toThrow(
    `ALTER ROLE ${role} NOINHERIT`,
  );
});

it('as a member that does not inherit it, sees every row, and a scoped transaction only its customer', async () => {
  await admin(`alter role ${role} noinherit`);
  const database = await openDatabase({ databaseUrl: asRole(), dataDir: null });
  try {
    const names = rowsOf<{ name: string }>(
      await database.db.execute(
        sql`select name from customers where name like 'Role Clinic %' order by name`,
      ),
    ).map((r) => r.name);
    expect(names).toEqual(['Role Clinic A', 'Role Clinic B']);
    const [a] = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from customers where name = 'Role Clinic A'`),
    );
    const scoped = await withCustomerScope(database.db, a!.id, async (tx) =>
      rowsOf<{ name: string }>(await tx.execute(sql`select name from customers`)).map((r) => r.name),
    );
    expect(scoped).toEqual(['Role Clinic A']);
  } finally {
    await database.close();
  }
});
