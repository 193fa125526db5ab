import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { recordHistoryPaths, type HistoryEntry } from '@app/contract/record-history';
import { users } from '#api/db/schema/users.ts';
import { appRoleId } from '#api/test/device-fixtures.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { testAdmin, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());

async function historyOf(url: string, as = token): Promise<HistoryEntry[]> {
  const res = await t.injectAs(as, { method: 'GET', url, query: { limit: '100' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.history as HistoryEntry[];
}
const changes = (entries: HistoryEntry[]) =>
  entries.map((e) => ({ field: e.field, oldValue: e.oldValue, newValue: e.newValue }));

let n = 0;
const userForm = (roleId: string) => {
  n += 1;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    userName: `ada_${n}_${Date.now()}`,
    email: `ada.${n}.${Date.now()}@example.com`,
    phone: '0123456789',
    roleId,
  };
};

describe('a user edit', () => {
  it('writes exactly the fields it changed, names the roles, and never a password', async () => {
    const appRole = await appRoleId(t);
    await t.stepUp(token);
    const other = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.roles,
      payload: { roleName: `Field crew ${Date.now()}`, type: 'app' },
    });
    const form = userForm(appRole);
    const created = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.users,
      payload: { ...form, password: 'Created-Passw0rd!' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data._id as string;
    const before = await historyOf(recordHistoryPaths.user(id));
    const edit = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.user(id),
      // The form sends every field; a password in it is ignored (product.md §5.9).
      payload: { ...form, phone: '0987654321', roleId: other.json().data._id, password: 'Ignored-Passw0rd!' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const after = await historyOf(recordHistoryPaths.user(id));
    const rows = after.slice(0, after.length - before.length);
    expect(changes(rows)).toEqual([
      { field: 'phone', oldValue: '0123456789', newValue: '0987654321' },
      { field: 'roleId', oldValue: appRole, newValue: other.json().data._id },
    ]);
    expect(rows[1]).toMatchObject({
      oldLabel: expect.stringMatching(/^Technicians /),
      newLabel: other.json().data.roleName,
    });
    expect(rows[0]).toMatchObject({ actor: { email: testAdmin.email }, secret: false });
    // Created by the admin: the password is said to be set, and nothing of it is kept.
    expect(before.find((e) => e.field === 'password')).toMatchObject({
      secret: true,
      oldValue: null,
      newValue: null,
    });
  });

  it('records a password changed by anyone as changed, and stores no hash, old or new', async () => {
    const { userId } = await signInWithPermissions(t, token, ['devices.view']);
    const [{ hash }] = (await t.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, userId))) as [{ hash: string }];
    await t.database.db.update(users).set({ passwordHash: 'not-a-real-hash' }).where(eq(users.id, userId));
    const [latest] = await historyOf(recordHistoryPaths.user(userId));
    expect(latest).toMatchObject({
      field: 'password',
      secret: true,
      oldValue: null,
      newValue: null,
      actor: null,
    });
    const { rows } = (await t.database.db.execute(
      sql`select count(*)::int as n from record_history where old_value::text like ${`%${hash.slice(-20)}%`}
            or new_value::text like '%not-a-real-hash%'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows[0]!.n).toBe(0);
  });

  it("keeps a role's permissions as lists, old and new, and is readable by any admin", async () => {
    await t.stepUp(token);
    const role = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.roles,
      payload: { roleName: `Viewers ${Date.now()}`, type: 'admin', permissions: ['devices.view'] },
    });
    const id = role.json().data._id as string;
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.role(id),
      payload: {
        roleName: role.json().data.roleName,
        type: 'admin',
        permissions: ['devices.view', 'logs.view'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { token: someone } = await signInWithPermissions(t, token, ['logs.view']);
    const [latest] = await historyOf(recordHistoryPaths.role(id), someone);
    expect(latest).toMatchObject({
      field: 'permissions',
      oldValue: ['devices.view'],
      newValue: ['devices.view', 'logs.view'],
      actor: { email: testAdmin.email },
    });
  });

  it("is read with the record's own permission: a user's history needs users.manage", async () => {
    const { token: viewer } = await signInWithPermissions(t, token, ['devices.view']);
    const res = await t.injectAs(viewer, { method: 'GET', url: recordHistoryPaths.user(testAdminId()) });
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toContain('users.manage');
  });
});

/** Any id will do for a refusal: the permission is checked before the route reads anything. */
const testAdminId = () => '00000000-0000-4000-8000-000000000000';
