import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogs, errorLogs } from '../../db/schema/logs.ts';
import { createTestApp, testAdmin, type TestApp } from '../../test/test-app.ts';
import { searchAccessByDictionary } from './dictionary-search.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.injectAs(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const accessLogsAll = (q = '') => get(`/api/v1/admin/access-logs/all${q}`);
const errorLogsAll = (q = '') => get(`/api/v1/admin/error-logs/all${q}`);

describe('the audit trail', () => {
  it('writes an access row for an authenticated request, without any secret', async () => {
    const res = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/users/all?search=TopSecretValue&page=1',
    });
    expect(res.statusCode).toBe(200);
    await t.app.audit.flush();
    const me = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).json().data._id;
    await t.app.audit.flush();
    const { logs } = await accessLogsAll(`?userId=${me}`);
    const row = logs.find((l: { resource: string }) => l.resource === 'GET /api/v1/admin/users/all');
    expect(row).toMatchObject({
      userEmail: testAdmin.email,
      location: '127.0.0.1',
      statusCode: 200,
      user: { email: testAdmin.email },
    });
    expect(row.time).toBe(row.createdTime);
    const everything = JSON.stringify([
      await t.database.db.select().from(accessLogs),
      await t.database.db.select().from(errorLogs),
    ]);
    expect(everything).not.toContain('TopSecretValue');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(testAdmin.password);
  });

  it('writes an error row with the handler name, the msg and the user for a failed request', async () => {
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: '/api/v1/admin/users/00000000-0000-4000-8000-000000000000',
      payload: { firstName: '', password: 'Hunter2-secret' },
    });
    expect(res.statusCode).toBe(400);
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=updateUser');
    expect(logs[0]).toMatchObject({
      resource: 'PUT /api/v1/admin/users/:id',
      functionName: 'updateUser',
      statusCode: 400,
      message: expect.stringContaining('First name is required'),
      userEmail: testAdmin.email,
    });
    expect(logs[0].utcTime).toMatch(/Z$/);
    expect(JSON.stringify(logs)).not.toContain('Hunter2-secret');
  });

  it('logs a failed sign-in without the password and without a user', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: 'intruder@example.com', password: 'Guess-Passw0rd' },
    });
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=login');
    expect(logs[0]).toMatchObject({
      resource: 'POST /api/v1/admin/login',
      statusCode: 401,
      user: null,
      userEmail: null,
    });
    expect(JSON.stringify(logs)).not.toContain('Guess-Passw0rd');
  });

  it('names unknown routes by their path, without the query string or long tokens', async () => {
    await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/reset/abcdefghijklmnopqrstuvwxyz012345?otp=123456',
    });
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=reset');
    expect(logs[0]).toMatchObject({
      resource: 'GET /api/v1/admin/reset/:redacted',
      functionName: 'notFound',
      statusCode: 404,
    });
  });

  it("files a console list filtered by a machine under the admin, not among the machine's own logs", async () => {
    const res = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/doctor/all?machineNumber=MN-FILTER',
    });
    expect(res.statusCode).toBe(200);
    await t.app.audit.flush();
    const rows = await t.database.db
      .select({ machineNumber: accessLogs.machineNumber, userEmail: accessLogs.userEmail })
      .from(accessLogs)
      .where(sql`${accessLogs.resource} = 'GET /api/v1/admin/doctor/all'`);
    expect(rows).toEqual([{ machineNumber: null, userEmail: testAdmin.email }]);
    expect((await accessLogsAll('?machineNumber=MN-FILTER')).logs).toEqual([]);
  });

  it('records who viewed which record, so "who looked at this patient" has an answer', async () => {
    const auth = { userId: 'viewer-1', sessionId: 's', email: 'viewer@example.com' };
    t.app.audit.recordView({ auth, ip: '10.1.2.3' } as never, {
      kind: 'patient',
      id: 'p-42',
      machineNumber: 'M-7',
    });
    await t.app.audit.flush();
    const { logs } = await accessLogsAll('?recordId=p-42');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      resource: 'VIEW patient p-42',
      recordKind: 'patient',
      recordId: 'p-42',
      userEmail: 'viewer@example.com',
      location: '10.1.2.3',
      machineNumber: 'M-7',
    });
    expect((await accessLogsAll('?search=patient p-42')).logs).toHaveLength(1);
    expect((await errorLogsAll('?recordId=p-42')).logs).toHaveLength(0);
  });

  it('has a write and a record view in the trail before the answer arrives (a crash right after loses neither)', async () => {
    const created = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/roles',
      payload: { roleName: 'Audited before answer', type: 'app' },
    });
    expect(created.statusCode).toBe(201);
    // No flush: the row must already be there.
    const writes = await t.database.db
      .select()
      .from(accessLogs)
      .where(sql`${accessLogs.resource} = 'POST /api/v1/admin/roles'`);
    expect(writes.map((r) => r.statusCode)).toContain(201);

    const auth = { userId: 'viewer-2', sessionId: 's', email: 'viewer2@example.com' };
    const request = { auth, ip: '10.1.2.4', method: 'GET' } as { auditRecordViewed?: boolean };
    t.app.audit.recordView(request as never, { kind: 'patient', id: 'p-77' });
    expect(request.auditRecordViewed).toBe(true);
  });

  it('keeps answering requests while the log tables cannot be written', async () => {
    await t.database.db.execute(sql`alter table access_logs rename to access_logs_away`);
    try {
      const res = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/roles/all?limit=1' });
      expect(res.statusCode).toBe(200);
      // A write waits for its row, but never fails for it.
      const write = await t.injectAs(token, {
        method: 'POST',
        url: '/api/v1/admin/roles',
        payload: { roleName: 'Logged later', type: 'app' },
      });
      expect(write.statusCode).toBe(201);
      await expect(t.app.audit.flush()).resolves.toBeUndefined();
    } finally {
      await t.database.db.execute(sql`alter table access_logs_away rename to access_logs`);
    }
    // The rows were kept and land on the next write.
    await t.app.audit.flush();
    const { logs } = await accessLogsAll('?search=roles/all');
    expect(logs.length).toBeGreaterThan(0);
  });
});

describe('GET access-logs/all and error-logs/all', () => {
  const base = Date.parse('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    await t.app.audit.flush();
    const rows = Array.from({ length: 37 }, (_, i) => ({
      createdAt: new Date(base + i * 60_000),
      userId: i % 2 ? 'user-odd' : 'user-even',
      userEmail: i % 2 ? 'odd@example.com' : 'even@example.com',
      resource: `GET /api/v1/admin/machine/${i}`,
      location: '192.168.0.1',
      machineNumber: i % 3 === 0 ? 'MN-3' : 'MN-X',
    }));
    await t.database.db.insert(accessLogs).values(rows);
    await t.database.db
      .insert(errorLogs)
      .values(rows.map((r) => ({ ...r, functionName: 'getMachine', statusCode: 500, message: 'boom' })));
  });

  it('refuses a request without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/access-logs/all' })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/error-logs/all' })).statusCode).toBe(401);
  });

  it('pages newest first with logs, total_pages and an exact total by user and by machine', async () => {
    const byUser = await accessLogsAll('?userId=user-odd&limit=10');
    expect(byUser).toMatchObject({ total: 18, total_pages: 2, totalIsEstimate: false, page: 1, limit: 10 });
    expect(byUser.logs[0].resource).toBe('GET /api/v1/admin/machine/35');
    const byMachine = await errorLogsAll('?machineNumber=MN-3&limit=25');
    expect(byMachine).toMatchObject({ total: 13, total_pages: 1 });
    expect(byMachine.logs[0]).toMatchObject({
      functionName: 'getMachine',
      machineNumber: 'MN-3',
      message: 'boom',
    });
    const both = await accessLogsAll('?userId=user-odd&machineNumber=MN-3');
    expect(both.total).toBe(6);
  });

  it('counts everything exactly, matching the table', async () => {
    await t.app.audit.flush();
    const [{ n }] = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(accessLogs)) as [
      { n: number },
    ];
    expect((await accessLogsAll()).total).toBe(n);
  });

  it('continues from a cursor exactly where offset paging would', async () => {
    const first = await accessLogsAll('?userId=user-even&limit=5');
    const byOffset = await accessLogsAll('?userId=user-even&limit=5&page=2');
    const byCursor = await accessLogsAll(`?userId=user-even&limit=5&page=2&after=${first.nextCursor}`);
    expect(byCursor.logs).toEqual(byOffset.logs);
    expect(byCursor.total).toBe(19);
    const last = await accessLogsAll('?userId=user-even&limit=25');
    expect(last.nextCursor).toBeNull();
  });

  it('searches resource, email, location and machine number, case-insensitively', async () => {
    expect((await accessLogsAll('?search=ODD@example')).total).toBe(18);
    expect((await accessLogsAll('?search=machine/3')).total).toBe(8); // 3, 30..36
    expect((await errorLogsAll('?search=mn-3')).total).toBe(13);
    expect((await accessLogsAll('?search=100%25_off')).total).toBe(0);
  });

  it('answers an empty result with no rows', async () => {
    expect(await accessLogsAll('?userId=nobody')).toMatchObject({ logs: [], total: 0, nextCursor: null });
  });

  it('rejects bad filters with a 400 naming them', async () => {
    for (const [q, msg] of [
      ['?limit=0', 'limit must be at least 1'],
      ['?limit=101', 'limit must be at most 100'],
      ['?page=x', 'page must be a number'],
      ['?after=bm9wZQ', 'after must be a cursor'],
      [`?search=${'x'.repeat(101)}`, 'search must be at most 100 characters'],
    ]) {
      const res = await t.injectAs(token, { method: 'GET', url: `/api/v1/admin/access-logs/all${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg).toContain(msg);
    }
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
    const ids = (Array.isArray(expected) ? expected : (expected as { rows: { id: number }[] }).rows).map(
      (r) => String((r as { id: number }).id),
    );
    expect(res.logs.map((l: { _id: string }) => l._id)).toEqual(ids);
  });

  it('counts a narrow search exactly', async () => {
    const res = await accessLogsAll('?search=machine/3');
    expect(res).toMatchObject({ total: 8, totalIsEstimate: false });
  });
});

describe('search through the dictionary of emails, routes and machine numbers', () => {
  beforeAll(async () => {
    await t.app.audit.flush();
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
    const rows = (r: unknown) =>
      (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { id: number; n: number }[];
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
    expect(
      Number((Array.isArray(spanning) ? spanning : (spanning as { rows: { n: number }[] }).rows)[0]!.n),
    ).toBeGreaterThan(0);
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
