import { expect } from 'vitest';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import type { TestApp } from '#api/test/test-app.ts';

/** The two log lists as the console reads them, signed in on the app `current()` gives. */
export function logRequests(current: () => { t: TestApp; token: string }) {
  const get = async (url: string) => {
    const { t, token } = current();
    const res = await t.injectAs(token, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  return {
    get,
    accessLogsAll: (q = '') => get(`/api/v1/admin/access-logs/all${q}`),
    errorLogsAll: (q = '') => get(`/api/v1/admin/error-logs/all${q}`),
  };
}

/**
 * 37 access rows a minute apart from `base`, and an error row for each: two users (odd, even), two
 * machines (MN-3 every third row, MN-X), a route of its own each.
 */
export async function insertSampleLogs(t: TestApp, base: number) {
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
}
