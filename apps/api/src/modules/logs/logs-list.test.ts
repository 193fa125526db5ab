import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogs } from '#api/db/schema/logs.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { insertSampleLogs, logRequests } from './logs-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { accessLogsAll, errorLogsAll } = logRequests(() => ({ t, token }));

describe('GET access-logs/all and error-logs/all', () => {
  const base = Date.parse('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    await t.app.audit.flush();
    await insertSampleLogs(t, base);
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

  it('counts a narrow search exactly', async () => {
    const res = await accessLogsAll('?search=machine/3');
    expect(res).toMatchObject({ total: 8, totalIsEstimate: false });
  });
});
