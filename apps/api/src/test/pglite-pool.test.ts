import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../bootstrap.ts';
import { rowsOf } from '../db/rows-of.ts';
import type { Database } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import { pooledPglite } from './pglite-pool.ts';

/*
 * The pool is what keeps the API tests' databases cheap: a database that is silently never reused
 * would cost every test app a new one, and the tests would still pass, only slower.
 */
const counts = async (database: Database) =>
  rowsOf<{ users: number; roles: number; devices: string }>(
    await database.db.execute(sql`select
      (select count(*)::int from users) as users,
      (select count(*)::int from roles) as roles,
      (select n::text from table_row_counts where table_name = 'devices') as devices`),
  )[0];

describe('the PGlite pool', () => {
  it('hands a database a test wrote to (its triggers run) back to the next one, as migrations left it', async () => {
    const first = await pooledPglite();
    const migrated = await counts(first.database);
    await bootstrap(first.database.db, { adminEmail: 'pool@example.test', adminPassword: 'Pool-Passw0rd!' });
    // A trigger-maintained counter moves: the row reset must put it back.
    await first.database.db.insert(devices).values({
      machineNumber: 'POOL-1',
      serialNumber: 'SN-POOL-1',
      location: 'Berlin',
      latitude: 52.5,
      longitude: 13.4,
      city: 'Berlin',
      country: 'Germany',
      address: 'Unter den Linden 1',
    });
    expect(await counts(first.database)).not.toEqual(migrated);
    await first.release();

    const second = await pooledPglite();
    // Compared as a boolean: a failed toBe would print both databases, WebAssembly memory and all.
    expect(second.database === first.database, 'the same database came back').toBe(true);
    expect(await counts(second.database)).toEqual(migrated);
    await second.release();
  });

  it('never hands back a database whose schema a test changed', async () => {
    const first = await pooledPglite();
    await first.database.db.execute(sql`create table pool_left_behind (id int)`);
    await first.release();

    const second = await pooledPglite();
    expect(second.database === first.database, 'the same database came back').toBe(false);
    const left = rowsOf(await second.database.db.execute(sql`select to_regclass('pool_left_behind') as t`));
    expect(left).toEqual([{ t: null }]);
    await second.release();
  });

  it('never hands back a database whose session settings a test changed', async () => {
    const first = await pooledPglite();
    await first.database.db.execute(sql`set statement_timeout = '5s'`);
    await first.release();

    const second = await pooledPglite();
    expect(second.database === first.database, 'the same database came back').toBe(false);
    const timeout = rowsOf(await second.database.db.execute(sql`show statement_timeout`));
    expect(timeout).toEqual([{ statement_timeout: '0' }]);
    await second.release();
  });
});
