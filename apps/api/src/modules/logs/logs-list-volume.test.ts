import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '#api/db/rows-of.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { insertSampleLogs, logRequests } from './logs-test-requests.ts';

/*
 * The log lists over tens of thousands of rows: estimated totals, cursors and deep pages of a
 * search. Filling the tables takes seconds of the embedded database's time, so these run in
 * `npm test` and not in the fast loop (vitest.fast.config.ts); logs-list.test.ts has the rest.
 */

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { accessLogsAll } = logRequests(() => ({ t, token }));

describe('GET access-logs/all over many rows', () => {
  const base = Date.parse('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    await t.app.audit.flush();
    await insertSampleLogs(t, base);
  });

  it('estimates the total of a broad search instead of counting every match, and says so', async () => {
    await t.database.db.execute(sql`
      insert into access_logs (created_at, user_id, resource, location)
      select now() - (g || ' seconds')::interval, 'bulk-user', 'GET /api/v1/admin/bulk', '10.0.0.9' from generate_series(1, 12000) g`);
    await t.database.db.execute(sql`analyze access_logs`);
    // Search with a user filter goes the general way (not the dictionary).
    const res = await accessLogsAll('?userId=bulk-user&search=admin/bulk&limit=25');
    expect(res.totalIsEstimate).toBe(true);
    expect(res.total).toBeGreaterThan(5_000);
    expect(res.total_pages).toBe(Math.ceil(res.total / 25));
    expect(res.logs).toHaveLength(25);
    const all = await accessLogsAll();
    expect(all.totalIsEstimate).toBe(false);
    expect(all.total).toBeGreaterThan(12_000);
  });

  it('pages a search by cursor exactly as by offset', async () => {
    const first = await accessLogsAll('?userId=bulk-user&search=admin/bulk&limit=25');
    const byOffset = await accessLogsAll('?userId=bulk-user&search=admin/bulk&limit=25&page=2');
    const byCursor = await accessLogsAll(
      `?userId=bulk-user&search=admin/bulk&limit=25&page=2&after=${first.nextCursor}`,
    );
    expect(byCursor.logs).toEqual(byOffset.logs);
    expect(byCursor.logs[0]._id).not.toBe(first.logs[0]._id);
  });

  it('finds a deep page of a term missing from the newest rows, with the same rows as plain SQL', async () => {
    await t.database.db.execute(sql`
      insert into access_logs (created_at, user_id, resource, location)
      select now() + (g || ' milliseconds')::interval, 'needle-user', case when g % 3 = 0 then 'GET /needle' else 'GET /hay' end, '10.0.0.8'
      from generate_series(1, 40000) g`);
    // With a user filter: the general way (the newest rows first, then the walk or the trigram index).
    const res = await accessLogsAll('?userId=needle-user&search=needle&limit=100&page=10');
    expect(res.logs).toHaveLength(100);
    // Exact when the trigram index answers within its budget, estimated when the walk does.
    expect(Math.abs(res.total - 13_333) / 13_333).toBeLessThan(0.5);
    const expected = await t.database.db.execute(
      sql`select id from access_logs where user_id = 'needle-user' and resource like '%needle%' order by created_at desc, id desc offset 900 limit 100`,
    );
    const ids = rowsOf<{ id: number }>(expected).map((r) => String(r.id));
    expect(res.logs.map((l: { _id: string }) => l._id)).toEqual(ids);
  });

  it('still counts a narrow search exactly', async () => {
    const res = await accessLogsAll('?search=machine/3');
    expect(res).toMatchObject({ total: 8, totalIsEstimate: false });
  });
});
