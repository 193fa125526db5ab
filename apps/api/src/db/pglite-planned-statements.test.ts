import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from './schema/devices.ts';
import { openMigratedPglite } from '../test/pglite-template.ts';
import type { Database } from './client.ts';
import { sqlLiteral } from './pglite-planned-statements.ts';

/*
 * Named statements on the embedded database run from plans PGlite keeps (decision 044). What must
 * hold: the same rows as a statement planned afresh, values that cannot break out of their
 * literal, one plan per LIMIT/OFFSET value, and no more plans than the cap.
 */

let database: Database;
beforeAll(async () => {
  // A database of its own (its planned statements start empty), from the migrated template.
  database = await openMigratedPglite();
  await database.db.execute(sql`
    insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address)
    select 'MN-' || g, 'SN-' || g, 'Lab', 1, 2, 'Bonn', 'DE', 'Street ' || g from generate_series(1, 40) g`);
  await database.db.execute(sql`
    insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address)
    values ('MN-''quote''', 'SN-Q', 'Lab', 1, 2, 'Bonn', 'DE', 'x')`);
});
afterAll(() => database.close());

const scalar = async (query: SQL) =>
  ((await database.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
const preparedCount = () => scalar(sql`select count(*)::int as n from pg_prepared_statements`);

describe('sqlLiteral', () => {
  it('writes each value as a literal that cannot end early, or refuses it', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    expect(sqlLiteral(-5)).toBe('(-5)');
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(true)).toBe('TRUE');
    expect(sqlLiteral(['a"b', 'c\\d', "e'f"])).toBe(`'{"a\\"b","c\\\\d","e''f"}'`);
    expect(sqlLiteral('nul\0byte')).toBeNull();
    expect(sqlLiteral(Number.NaN)).toBeNull();
    expect(sqlLiteral({ a: 1 })).toBeNull();
    expect(sqlLiteral(new Date())).toBeNull();
  });
});

describe('named statements on PGlite', () => {
  it('answers a named look-up from one kept plan, with the rows a fresh plan gives', async () => {
    const byNumber = database.db
      .select({ serial: devices.serialNumber })
      .from(devices)
      .where(eq(devices.machineNumber, sql.placeholder('number')))
      .prepare('test_device_by_number');
    const before = await preparedCount();
    expect(await byNumber.execute({ number: 'MN-7' })).toEqual([{ serial: 'SN-7' }]);
    expect(await byNumber.execute({ number: 'MN-8' })).toEqual([{ serial: 'SN-8' }]);
    expect(await byNumber.execute({ number: "MN-'quote'" })).toEqual([{ serial: 'SN-Q' }]);
    // A value written to break out of its literal only ever matches nothing.
    expect(await byNumber.execute({ number: "x'; delete from devices; --" })).toEqual([]);
    expect(await preparedCount()).toBe(before + 1);
    expect(await scalar(sql`select count(*)::int as n from devices`)).toBe(41);
  });

  it('plans a statement with LIMIT and OFFSET once per pair of values', async () => {
    const page = database.db
      .select({ number: devices.machineNumber })
      .from(devices)
      .orderBy(devices.machineNumber)
      .limit(sql.placeholder('take'))
      .offset(sql.placeholder('skip'))
      .prepare('test_device_page');
    const fresh = (take: number, skip: number) =>
      database.db
        .select({ number: devices.machineNumber })
        .from(devices)
        .orderBy(devices.machineNumber)
        .limit(take)
        .offset(skip);
    const before = await preparedCount();
    const pages: [take: number, skip: number][] = [
      [5, 0],
      [5, 5],
      [5, 0],
      [10, 30],
    ];
    for (const [take, skip] of pages)
      expect(await page.execute({ take, skip })).toEqual(await fresh(take, skip));
    expect(await preparedCount()).toBe(before + 3);
  });

  it('keeps at most 200 plans, letting the least recently used go', async () => {
    const page = database.db
      .select({ number: devices.machineNumber })
      .from(devices)
      .orderBy(devices.machineNumber)
      .limit(1)
      .offset(sql.placeholder('skip'))
      .prepare('test_device_at');
    for (let skip = 0; skip < 230; skip++) await page.execute({ skip });
    // The deallocations run behind the answers: give the last ones a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await preparedCount()).toBeLessThanOrEqual(200);
    const third = await database.db
      .select({ number: devices.machineNumber })
      .from(devices)
      .orderBy(devices.machineNumber)
      .limit(1)
      .offset(3);
    expect(await page.execute({ skip: 3 })).toEqual(third);
  });
});
