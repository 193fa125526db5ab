import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths } from '@app/contract/paths';
import { accessLogs } from '#api/db/schema/logs.ts';
import { devices } from '#api/db/schema/devices.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { exportBatchRows } from '#api/lib/csv-export.ts';

let t: TestApp;
let token: string;
// Two and a half batches, so the export continues from its cursor twice; every third in France.
const count = exportBatchRows * 2 + 500;
beforeAll(async () => {
  ({ t, token } = await signedInApp());
  // Created a microsecond apart (not a millisecond): the cursor must keep the database's precision.
  await t.database.db.execute(sql`
    insert into ${devices} (machine_number, serial_number, location, latitude, longitude, city, country, address, status, created_at, updated_at)
    select 'EX-' || lpad(n::text, 5, '0'), 'SN-EX-' || n, case when n = 7 then '=HYPERLINK("x")' else 'Ward, "North"' end,
      1, 2, 'City', case when n % 3 = 0 then 'France' else 'Germany' end, 'Street 1',
      case when n % 2 = 0 then 2 else 1 end,
      timestamptz '2025-01-01T00:00:00Z' + n * interval '1 microsecond', now()
    from generate_series(1, ${count}) n`);
});
afterAll(() => t.close());

const exportCsv = (query: Record<string, string>) =>
  t.injectAs(token, { method: 'GET', url: apiPaths.machineExport, query });
const lines = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .slice(0, -1);

describe('GET /api/v1/admin/machine-export', () => {
  it('writes every matching row once, newest first, with the chosen columns and their headers', async () => {
    const res = await exportCsv({ country: 'France', columns: 'machineNumber,status,country' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="devices-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = lines(res.body);
    expect(header).toBe('Machine Number,Status,Country');
    const expected = Array.from({ length: count }, (_, i) => count - i)
      .filter((n) => n % 3 === 0)
      .map((n) => `EX-${String(n).padStart(5, '0')},${n % 2 === 0 ? 'Active' : 'Inactive'},France`);
    expect(rows).toEqual(expected);
  });

  it('takes every list filter and search, and quotes or defuses cells a spreadsheet would misread', async () => {
    const res = await exportCsv({ search: 'ex-00007', status: '1', columns: 'machineNumber,location' });
    // Quoted for its quotes, and an apostrophe first so it is text, not a formula.
    expect(lines(res.body)).toEqual(['Machine Number,Location', `EX-00007,"'=HYPERLINK(""x"")"`]);
    const quoted = await exportCsv({ search: 'ex-00008', columns: 'location' });
    expect(lines(quoted.body)).toEqual(['Location', '"Ward, ""North"""']);
    const none = await exportCsv({ status: '2', country: 'Nowhere' });
    expect(lines(none.body)).toEqual(['Machine Number,Serial Number']);
  });

  it('audits who exported which list with which filters and how many rows', async () => {
    await exportCsv({ country: 'Germany', status: '2', columns: 'machineNumber' });
    await t.app.audit.flush();
    const [row] = await t.database.db
      .select()
      .from(accessLogs)
      .where(sql`${accessLogs.resource} like 'EXPORT devices%'`)
      .orderBy(sql`${accessLogs.id} desc`)
      .limit(1);
    const germanActive = Array.from({ length: count }, (_, i) => i + 1).filter(
      (n) => n % 3 !== 0 && n % 2 === 0,
    ).length;
    expect(row).toMatchObject({
      resource: `EXPORT devices ${germanActive} rows: country=Germany&status=2`,
      userEmail: expect.stringContaining('@'),
    });
  });

  it('names a bad column or filter in a 400 and writes nothing', async () => {
    for (const [query, msg] of [
      [{ columns: 'machineNumber,passwordHash' }, 'columns must be among'],
      [{ columns: ',' }, 'columns must name at least one column'],
      [{ status: '5' }, 'status must be 1 (Inactive) or 2 (Active)'],
    ] as const) {
      const res = await exportCsv(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().msg).toContain(msg);
    }
  });
});
