import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { addDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { clinicRole, withCustomerScope } from './customer-scope.ts';

/*
 * Row-level security (decision 090), in the database itself: a transaction scoped to clinic A sees
 * and changes none of clinic B's rows whatever its query says (no `where` at all, counts, sorting,
 * search), the supplier's unscoped queries still see everything, and no table holding a customer's
 * data is left outside the policies.
 */

const one = async <T>(db: Db, query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query))[0]!;

describe('a transaction scoped to one customer', () => {
  let t: TestApp;
  const clinic: Record<'a' | 'b', { id: string; deviceId: string; machineNumber: string }> = {} as never;
  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    for (const key of ['a', 'b'] as const) {
      const { id } = await one<{ id: string }>(
        db,
        sql`insert into customers (name, country) values (${`Scope clinic ${key}`}, 'Germany') returning id`,
      );
      const { deviceId, machineNumber } = await addDevice(t);
      const from = new Date(t.clock.now.getTime() - 86_400_000).toISOString();
      await db.execute(sql`insert into machine_assignments (device_id, customer_id, from_at)
        values (${deviceId}, ${id}, ${from}::timestamptz)`);
      await db.execute(sql`update devices set customer_id = ${id} where id = ${deviceId}`);
      await db.execute(sql`insert into treatment_records (device_id, user_name, treatment_device, treatment_plan)
        values (${deviceId}, ${`Patient of ${key}`}, 'HB-1', 'Plan'), (${deviceId}, ${`Second of ${key}`}, 'HB-1', 'Plan')`);
      await db.execute(sql`insert into patients (device_id, patientname, email)
        values (${deviceId}, ${`Patient of ${key}`}, ${`${key}@patients.test`})`);
      await db.execute(sql`insert into subscriptions (id, full_name, email, machine_serial_number, amount_cents,
          is_recurring, expired_at, device_id, customer_id)
        select ${`sub-scope-${key}-${Date.now()}`}, 'Owner', ${`${key}@clinic.test`}, d.serial_number, 1000, false,
          now() + interval '30 days', d.id, ${id} from devices d where d.id = ${deviceId}`);
      clinic[key] = { id, deviceId, machineNumber };
    }
  });
  afterAll(() => t.close());

  it('sees only its own customer’s rows, in counts, lists, search and sorting alike', async () => {
    const { a, b } = clinic;
    const seen = await withCustomerScope(t.database.db, a.id, async (tx) => ({
      role: (await one<{ role: string }>(tx, sql`select current_user as role`)).role,
      customers: rowsOf<{ id: string }>(await tx.execute(sql`select id from customers order by name desc`)),
      devices: rowsOf<{ id: string }>(await tx.execute(sql`select id from devices order by machine_number`)),
      treatments: await one<{ n: number }>(tx, sql`select count(*)::int as n from treatment_records`),
      byName: await one<{ n: number }>(
        tx,
        sql`select count(*)::int as n from treatment_records where user_name like ${'%of b'}`,
      ),
      patients: rowsOf<{ email: string }>(await tx.execute(sql`select email from patients`)),
      subscriptions: await one<{ n: number }>(tx, sql`select count(*)::int as n from subscriptions`),
      assignments: await one<{ n: number }>(tx, sql`select count(*)::int as n from machine_assignments`),
    }));
    expect(seen).toEqual({
      role: clinicRole,
      customers: [{ id: a.id }],
      devices: [{ id: a.deviceId }],
      treatments: { n: 2 },
      byName: { n: 0 },
      patients: [{ email: 'a@patients.test' }],
      subscriptions: { n: 1 },
      assignments: { n: 1 },
    });
    // The supplier's own query, outside any scope, still sees both clinics.
    const all = await one<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from customers where id in (${a.id}, ${b.id})`,
    );
    expect(all.n).toBe(2);
  });

  it('changes none of another customer’s rows and cannot move a row to it', async () => {
    const { a, b } = clinic;
    // The clinic role holds no write grant on a machine: the write is refused outright.
    await expect(
      withCustomerScope(t.database.db, a.id, (tx) =>
        tx.execute(sql`update devices set location = 'Taken' where id = ${b.deviceId}`),
      ),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/permission denied/) } });
    // And the rows it may read, B's are not among, even asked for by id.
    const asked = await withCustomerScope(t.database.db, a.id, (tx) =>
      tx.execute(sql`select id from devices where id = ${b.deviceId}`),
    );
    expect(rowsOf(asked)).toEqual([]);
    const { location } = await one<{ location: string }>(
      t.database.db,
      sql`select location from devices where id = ${b.deviceId}`,
    );
    expect(location).not.toBe('Taken');
  });

  it('leaves the role behind when the transaction ends', async () => {
    await withCustomerScope(t.database.db, clinic.a.id, async () => undefined);
    const after = await one<{ role: string; scope: string | null }>(
      t.database.db,
      sql`select current_user as role, nullif(current_setting('app.customer_id', true), '') as scope`,
    );
    expect(after.role).not.toBe(clinicRole);
    expect(after.scope).toBeNull();
  });

  it('keeps no table with a customer’s data outside the policies, and grants the clinic role no other', async () => {
    const tables = rowsOf<{ table: string; rls: boolean; policies: string[]; granted: boolean }>(
      await t.database.db.execute(sql`
        select c.relname as table, c.relrowsecurity as rls,
          coalesce(array(select p.polname::text from pg_policy p where p.polrelid = c.oid order by 1), '{}') as policies,
          has_table_privilege(${clinicRole}, c.oid, 'select') as granted
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
          and (c.relrowsecurity or has_table_privilege(${clinicRole}, c.oid, 'select')
            or exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'customer_id' and not a.attisdropped))
        order by 1`),
    );
    const outside = tables.filter(
      (r) =>
        !r.rls || !r.granted || !r.policies.includes('clinic_rows') || !r.policies.includes('supplier_rows'),
    );
    expect(outside).toEqual([]);
    expect(tables.map((r) => r.table)).toEqual(
      expect.arrayContaining(['customers', 'devices', 'treatment_records', 'patients', 'access_logs']),
    );
  });

  it("gives each policy the shape the planner can use: the supplier's no condition, the clinic's ANDed", async () => {
    // Two permissive policies are ORed: a clinic's condition beside a role test served no index (a
    // clinic's figures read every treatment) and filtered the supplier's every row (migration 0061).
    const policies = rowsOf<{ name: string; permissive: string; roles: string[]; qual: string }>(
      await t.database.db.execute(sql`
        select policyname as name, permissive, roles::text[] as roles, qual
        from pg_policies where schemaname = 'public' order by tablename, policyname`),
    );
    const wrong = policies.filter((p) =>
      p.name === 'supplier_rows'
        ? p.permissive !== 'PERMISSIVE' || p.qual !== 'true' || p.roles.join() !== 'public'
        : p.permissive !== 'RESTRICTIVE' || p.roles.join() !== clinicRole,
    );
    expect(wrong).toEqual([]);
    expect(policies.length).toBeGreaterThanOrEqual(32);
  });
});
