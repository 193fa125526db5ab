import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { logRequests } from './logs-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { accessLogsAll, errorLogsAll } = logRequests(() => ({ t, token }));

// Four logs a day from 2024-03-01 to 2024-03-05 (UTC), the first at midnight and the last a
// second before the next midnight: long before anything the test app itself writes.
const days = ['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04', '2024-03-05'];
const offsets = [0, 6 * 3600_000, 12 * 3600_000, 24 * 3600_000 - 1000];

describe('the log lists by day range', () => {
  beforeAll(async () => {
    const rows = days.flatMap((day, d) =>
      offsets.map((offset, i) => ({
        createdAt: new Date(Date.parse(`${day}T00:00:00Z`) + offset),
        userId: d % 2 ? 'ranged-odd' : 'ranged-even',
        userEmail: 'ranged@example.com',
        resource: `GET /api/v1/admin/machine/${day}-${i}`,
        location: '10.0.0.1',
        machineNumber: 'MN-R',
      })),
    );
    await t.database.db.insert(accessLogs).values(rows);
    await t.database.db
      .insert(errorLogs)
      .values(rows.map((r) => ({ ...r, functionName: 'getMachine', statusCode: 500, message: 'boom' })));
  });

  it('keeps the logs written from the start of `from` to the end of `to`, newest first, exactly counted', async () => {
    const page = await accessLogsAll('?from=2024-03-02&to=2024-03-03&limit=25');
    expect(page).toMatchObject({ total: 8, total_pages: 1, totalIsEstimate: false });
    expect(page.logs.map((l: { resource: string }) => l.resource)).toEqual([
      'GET /api/v1/admin/machine/2024-03-03-3',
      'GET /api/v1/admin/machine/2024-03-03-2',
      'GET /api/v1/admin/machine/2024-03-03-1',
      'GET /api/v1/admin/machine/2024-03-03-0',
      'GET /api/v1/admin/machine/2024-03-02-3',
      'GET /api/v1/admin/machine/2024-03-02-2',
      'GET /api/v1/admin/machine/2024-03-02-1',
      'GET /api/v1/admin/machine/2024-03-02-0',
    ]);
    const errors = await errorLogsAll('?from=2024-03-05&to=2024-03-05');
    expect(errors.total).toBe(4);
  });

  it('takes one end alone, and combines with a user, a machine, a search and the cursor', async () => {
    expect((await accessLogsAll('?to=2024-03-01')).total).toBe(4);
    expect((await accessLogsAll('?userId=ranged-odd&from=2024-03-03')).total).toBe(4);
    expect((await accessLogsAll('?machineNumber=MN-R&from=2024-03-04&to=2024-03-05')).total).toBe(8);
    const searched = await accessLogsAll('?search=2024-03-04&from=2024-03-01&to=2024-03-04');
    expect(searched.logs.map((l: { resource: string }) => l.resource)).toHaveLength(4);
    const first = await accessLogsAll('?from=2024-03-01&to=2024-03-05&limit=10');
    const next = await accessLogsAll(
      `?from=2024-03-01&to=2024-03-05&limit=10&page=2&after=${first.nextCursor}`,
    );
    expect(next.logs[0].resource).toBe('GET /api/v1/admin/machine/2024-03-03-1');
    expect(next.total).toBe(20);
  });

  it('names a bad or reversed range in a 400', async () => {
    for (const [q, msg] of [
      ['?from=2024-3-1', 'from must be a date (YYYY-MM-DD)'],
      ['?to=yesterday', 'to must be a date (YYYY-MM-DD)'],
      ['?from=2024-03-05&to=2024-03-01', 'from must not be after to'],
    ]) {
      for (const list of ['access-logs', 'error-logs']) {
        const res = await t.injectAs(token, { method: 'GET', url: `/api/v1/admin/${list}/all${q}` });
        expect(res.statusCode, `${list}${q}`).toBe(400);
        expect(res.json().msg).toBe(msg);
      }
    }
  });

  it('exports exactly the filtered rows of each list as CSV, with the What Happened words', async () => {
    const csv = async (list: string, q: string) => {
      const res = await t.injectAs(token, { method: 'GET', url: `/api/v1/admin/${list}/export${q}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter(Boolean);
    };
    const [header, ...rows] = await csv('access-logs', '?from=2024-03-02&to=2024-03-03');
    expect(header).toBe('Time,User,Resource,What Happened,Location,Status Code');
    const listed = await accessLogsAll('?from=2024-03-02&to=2024-03-03&limit=25');
    expect(rows.map((r) => r.split(',')[2])).toEqual(
      listed.logs.map((l: { resource: string }) => l.resource),
    );
    expect(rows[0]).toBe(
      '2024-03-03T23:59:59.000Z,ranged@example.com,GET /api/v1/admin/machine/2024-03-03-3,,10.0.0.1,',
    );
    const [errorHeader, ...errors] = await csv('error-logs', '?userId=ranged-odd');
    expect(errorHeader).toBe('Time,User,Resource,Function Name,Message,Status Code');
    expect(errors).toHaveLength(8);
    expect(errors.every((r) => r.endsWith(',getMachine,boom,500'))).toBe(true);
    const bad = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/access-logs/export?from=2024-03-05&to=2024-03-01',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('from must not be after to');
  });
});
