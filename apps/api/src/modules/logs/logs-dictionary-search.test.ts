import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '#api/db/rows-of.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { searchAccessByDictionary } from './dictionary-search.ts';
import { insertSampleLogs, logRequests } from './logs-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { accessLogsAll, errorLogsAll } = logRequests(() => ({ t, token }));

describe('search through the dictionary of emails, routes and machine numbers', () => {
  beforeAll(async () => {
    await t.app.audit.flush();
    // Rows of many routes besides the ones below, so a term like GET names too many to list.
    await insertSampleLogs(t, Date.parse('2026-01-01T00:00:00Z'));
    await t.database.db.execute(sql`
      insert into access_logs (created_at, user_id, user_email, resource, location, machine_number)
      select timestamptz '2026-03-01T00:00:00Z' + (g % 997) * interval '1 second',
             'dict-' || (g % 12), 'dict' || (g % 12) || '@clinic.example', 'GET /api/v1/admin/doctor/' || (g % 5),
             '10.9.' || (g % 7) || '.1', case when g % 4 = 0 then 'DX-' || (g % 9) end
      from generate_series(1, 3000) g`);
  });

  /**
   * The same search in plain SQL over the whole table: the rows every path must return. (Terms
   * avoid 127.0.0.1 and the admin's email: the test's own requests add rows of those as it runs.)
   */
  async function plain(term: string, offset: number, limit: number) {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = (r: unknown) => rowsOf<{ id: number; n: number }>(r);
    const matches = sql`(resource ilike ${pattern} or user_email ilike ${pattern} or location ilike ${pattern} or machine_number ilike ${pattern})`;
    const ids = rows(
      await t.database.db.execute(
        sql`select id from access_logs where ${matches} order by created_at desc, id desc offset ${offset} limit ${limit}`,
      ),
    );
    const [count] = rows(
      await t.database.db.execute(sql`select count(*)::int as n from access_logs where ${matches}`),
    );
    return { ids: ids.map((r) => String(r.id)), total: Number(count!.n) };
  }

  it.each([
    'dict1',
    'DICT1@',
    'dict11@clinic',
    'doctor/3',
    'DX-',
    'dx-4',
    'clinic.example',
    'no-such-term',
    '100%_x',
    '10.9.3',
    '10.0.0.',
    '9.3.',
    'GET /api/v1/admin/doctor/3',
  ])('returns the same rows and count as plain SQL for %s, on every page and by cursor', async (term) => {
    const q = `?search=${encodeURIComponent(term)}&limit=20`;
    const expected = await plain(term, 0, 20);
    const first = await accessLogsAll(q);
    expect(first.logs.map((l: { _id: string }) => l._id)).toEqual(expected.ids);
    if (!first.totalIsEstimate) expect(first.total).toBe(expected.total);
    if (!first.nextCursor) return;
    const second = await plain(term, 20, 20);
    expect((await accessLogsAll(`${q}&page=2`)).logs.map((l: { _id: string }) => l._id)).toEqual(second.ids);
    const byCursor = await accessLogsAll(`${q}&page=2&after=${first.nextCursor}`);
    expect(byCursor.logs.map((l: { _id: string }) => l._id)).toEqual(second.ids);
    if (!byCursor.totalIsEstimate) expect(byCursor.total).toBe(expected.total);
  });

  it('matches a term inside one field, never one spanning two', async () => {
    const text = sql`resource || ' ' || coalesce(user_email, '') || ' ' || coalesce(location, '') || ' ' || coalesce(machine_number, '')`;
    const spanning = await t.database.db.execute(
      sql`select count(*)::int as n from access_logs where ${text} ilike '%doctor/3 dict%'`,
    );
    expect(Number(rowsOf<{ n: number }>(spanning)[0]!.n)).toBeGreaterThan(0);
    expect(await accessLogsAll('?search=doctor/3%20dict')).toMatchObject({ total: 0, logs: [] });
    expect(await errorLogsAll('?search=doctor/3%20dict')).toMatchObject({ total: 0, logs: [] });
  });

  it('answers plain terms from the dictionary and leaves the rest to the general search', async () => {
    const db = t.database.db;
    expect(await searchAccessByDictionary(db, 'dict1', undefined, 0, 10)).toMatchObject({
      total: 750,
      estimated: false,
    });
    expect((await searchAccessByDictionary(db, 'dict1', undefined, 0, 10))!.ids).toHaveLength(10);
    expect(await searchAccessByDictionary(db, 'no-such-term', undefined, 0, 10)).toEqual({
      ids: [],
      total: 0,
      estimated: false,
    });
    expect(await searchAccessByDictionary(db, 'doctor/3 dict', undefined, 0, 10)).toEqual({
      ids: [],
      total: 0,
      estimated: false,
    });
    expect(await searchAccessByDictionary(db, '10.9.', undefined, 0, 10)).toMatchObject({
      total: 3000,
      estimated: false,
    });
    expect(await searchAccessByDictionary(db, 'GET', undefined, 0, 10)).toBeNull(); // names too many routes
  });

  it('counts a term that names one column exactly, however many rows it matches', async () => {
    // 3,000 rows over 12 emails: the general way would estimate; the counters know.
    for (const term of ['dict1', 'clinic.example', 'doctor/3', 'DX-', '10.9.']) {
      const res = await accessLogsAll(`?search=${encodeURIComponent(term)}&limit=10`);
      expect(res.totalIsEstimate, term).toBe(false);
      expect(res.total, term).toBe((await plain(term, 0, 1)).total);
    }
  });

  it('keeps counting right as new rows arrive and after rows are removed by the owner', async () => {
    const before = (await accessLogsAll('?search=dict5@')).total;
    await t.database.db
      .insert(accessLogs)
      .values({ resource: 'GET /x', userEmail: 'dict5@clinic.example', location: '10.0.0.1' });
    expect((await accessLogsAll('?search=dict5@')).total).toBe(before + 1);
  });

  it('refuses a log row whose location is not an address', async () => {
    await expect(
      t.database.db.insert(accessLogs).values({ resource: 'GET /x', location: 'Nairobi' }),
    ).rejects.toThrow();
  });
});
