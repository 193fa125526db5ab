import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogs, errorLogs } from '../../db/schema/logs.ts';
import { createTestApp, testAdmin, type TestApp } from '../../test/test-app.ts';

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
    const res = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/users/all?search=TopSecretValue&page=1' });
    expect(res.statusCode).toBe(200);
    await t.app.audit.flush();
    const me = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).json().data._id;
    await t.app.audit.flush();
    const { logs } = await accessLogsAll(`?userId=${me}`);
    const row = logs.find((l: { resource: string }) => l.resource === 'GET /api/v1/admin/users/all');
    expect(row).toMatchObject({ userEmail: testAdmin.email, location: '127.0.0.1', statusCode: 200, user: { email: testAdmin.email } });
    expect(row.time).toBe(row.createdTime);
    const everything = JSON.stringify([await t.database.db.select().from(accessLogs), await t.database.db.select().from(errorLogs)]);
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
    await t.app.inject({ method: 'POST', url: '/api/v1/admin/login', payload: { email: 'intruder@example.com', password: 'Guess-Passw0rd' } });
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=login');
    expect(logs[0]).toMatchObject({ resource: 'POST /api/v1/admin/login', statusCode: 401, user: null, userEmail: null });
    expect(JSON.stringify(logs)).not.toContain('Guess-Passw0rd');
  });

  it('names unknown routes by their path, without the query string or long tokens', async () => {
    await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/reset/abcdefghijklmnopqrstuvwxyz012345?otp=123456' });
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=reset');
    expect(logs[0]).toMatchObject({ resource: 'GET /api/v1/admin/reset/:redacted', functionName: 'notFound', statusCode: 404 });
  });

  it('records who viewed which record, so "who looked at this patient" has an answer', async () => {
    const auth = { userId: 'viewer-1', sessionId: 's', email: 'viewer@example.com' };
    t.app.audit.recordView({ auth, ip: '10.1.2.3' } as never, { kind: 'patient', id: 'p-42', machineNumber: 'M-7' });
    await t.app.audit.flush();
    const { logs } = await accessLogsAll('?recordId=p-42');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ resource: 'VIEW patient p-42', recordKind: 'patient', recordId: 'p-42', userEmail: 'viewer@example.com', location: '10.1.2.3', machineNumber: 'M-7' });
    expect((await accessLogsAll('?search=patient p-42')).logs).toHaveLength(1);
    expect((await errorLogsAll('?recordId=p-42')).logs).toHaveLength(0);
  });

  it('keeps answering requests while the log tables cannot be written', async () => {
    await t.database.db.execute(sql`alter table access_logs rename to access_logs_away`);
    try {
      const res = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/roles/all?limit=1' });
      expect(res.statusCode).toBe(200);
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
    await t.database.db.insert(errorLogs).values(rows.map((r) => ({ ...r, functionName: 'getMachine', statusCode: 500, message: 'boom' })));
  });

  it('refuses a request without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/access-logs/all' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/error-logs/all' })).statusCode).toBe(401);
  });

  it('pages newest first with logs, total_pages and an exact total by user and by machine', async () => {
    const byUser = await accessLogsAll('?userId=user-odd&limit=10');
    expect(byUser).toMatchObject({ total: 18, total_pages: 2, totalIsEstimate: false, page: 1, limit: 10 });
    expect(byUser.logs[0].resource).toBe('GET /api/v1/admin/machine/35');
    const byMachine = await errorLogsAll('?machineNumber=MN-3&limit=25');
    expect(byMachine).toMatchObject({ total: 13, total_pages: 1 });
    expect(byMachine.logs[0]).toMatchObject({ functionName: 'getMachine', machineNumber: 'MN-3', message: 'boom' });
    const both = await accessLogsAll('?userId=user-odd&machineNumber=MN-3');
    expect(both.total).toBe(6);
  });

  it('counts everything exactly, matching the table', async () => {
    const [{ n }] = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(accessLogs)) as [{ n: number }];
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
      insert into access_logs (created_at, resource, location)
      select now() - (g || ' seconds')::interval, 'GET /api/v1/admin/bulk', '10.0.0.9' from generate_series(1, 12000) g`);
    await t.database.db.execute(sql`analyze access_logs`);
    const res = await accessLogsAll('?search=admin/bulk&limit=25');
    expect(res.totalIsEstimate).toBe(true);
    expect(res.total).toBeGreaterThan(5_000);
    expect(res.total_pages).toBe(Math.ceil(res.total / 25));
    expect(res.logs).toHaveLength(25);
    const all = await accessLogsAll();
    expect(all.totalIsEstimate).toBe(false);
    expect(all.total).toBeGreaterThan(12_000);
  });

  it('pages a search by cursor exactly as by offset', async () => {
    const first = await accessLogsAll('?search=admin/bulk&limit=25');
    const byOffset = await accessLogsAll('?search=admin/bulk&limit=25&page=2');
    const byCursor = await accessLogsAll(`?search=admin/bulk&limit=25&page=2&after=${first.nextCursor}`);
    expect(byCursor.logs).toEqual(byOffset.logs);
    expect(byCursor.logs[0]._id).not.toBe(first.logs[0]._id);
  });

  it('finds a deep page of a term missing from the newest rows, with the same rows as plain SQL', async () => {
    await t.database.db.execute(sql`
      insert into access_logs (created_at, resource, location)
      select now() + (g || ' milliseconds')::interval, case when g % 3 = 0 then 'GET /needle' else 'GET /hay' end, '10.0.0.8'
      from generate_series(1, 40000) g`);
    const res = await accessLogsAll('?search=needle&limit=100&page=10');
    expect(res.logs).toHaveLength(100);
    // Exact when the trigram index answers within its budget, estimated when the walk does.
    expect(Math.abs(res.total - 13_333) / 13_333).toBeLessThan(0.5);
    const expected = await t.database.db.execute(
      sql`select id from access_logs where resource like '%needle%' order by created_at desc, id desc offset 900 limit 100`,
    );
    const ids = (Array.isArray(expected) ? expected : (expected as { rows: { id: number }[] }).rows).map((r) => String((r as { id: number }).id));
    expect(res.logs.map((l: { _id: string }) => l._id)).toEqual(ids);
  });

  it('counts a narrow search exactly', async () => {
    const res = await accessLogsAll('?search=machine/3');
    expect(res).toMatchObject({ total: 8, totalIsEstimate: false });
  });
});
