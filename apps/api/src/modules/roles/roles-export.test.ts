import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import type { Role } from '@app/contract/roles';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { accessRowsOf } from '#api/test/audit-rows.ts';
import { csvCells } from '#api/test/csv-file.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/* Issue 17 item 3: Roles as a CSV file holds the list's rows (its search), in its order, its column. */

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.stepUp(token);
  for (const roleName of ['Export Nurse', '=Export Formula', 'Export, "Quoted"', 'Other'])
    expect(
      (
        await t.injectAs(token, {
          method: 'POST',
          url: apiPaths.roles,
          payload: { roleName, type: 'admin', permissions: [] },
        })
      ).statusCode,
    ).toBe(201);
});
afterAll(() => t.close());

const exportOf = (tok: string, query: Record<string, string>) =>
  t.injectAs(tok, { method: 'GET', url: apiPaths.rolesExport, query });
const listed = async (query: Record<string, string>) =>
  (
    await t.injectAs(token, { method: 'GET', url: apiPaths.rolesAll, query: { ...query, limit: '100' } })
  ).json().data.roles as Role[];

describe('GET roles/export', () => {
  it("holds the roles the search matches, in the list's order, and is audited with the search", async () => {
    const audit = await accessRowsOf(t, async () => {
      const res = await exportOf(token, { search: 'export' });
      expect(res.statusCode, res.body).toBe(200);
      const [header, ...rows] = csvCells(res.body);
      expect(header).toEqual(['Role Name']);
      const list = await listed({ search: 'export' });
      expect(rows).toEqual(list.map((r) => [r.roleName.replace(/^=/, "'=")]));
      expect(rows).toEqual([['Export Nurse'], ["'=Export Formula"], ['Export, "Quoted"']]);
    });
    expect(audit.map((r) => r.resource)).toContain('EXPORT roles 3 rows: search=export');
  });

  it('holds every role without a search, as the list, for any admin (the list needs no permission)', async () => {
    const { token: plain } = await signInWithPermissions(t, token, []);
    const res = await exportOf(plain, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(csvCells(res.body).slice(1)).toEqual(
      (await listed({})).map((r) => [r.roleName.replace(/^=/, "'=")]),
    );
    expect((await exportOf(token, { search: 'x'.repeat(101) })).statusCode).toBe(400);
  });
});
