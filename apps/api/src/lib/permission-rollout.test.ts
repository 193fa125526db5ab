import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionCatalogue, permissionNames } from '@app/contract/permissions';
import { permissionRollouts, roles } from '#api/db/schema/users.ts';
import { firstAdminRoleId } from '#api/test/admin-role.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { rollOutPermissions } from './permission-rollout.ts';

/*
 * A permission is declared once, in the contract's catalogue (decision 067): a start-up grants one
 * this database has not seen to the first admin's role, and to the roles carrying its grantedWith,
 * with no hand-written migration.
 */

let t: TestApp;
let adminRoleId: string;
beforeAll(async () => {
  t = await createTestApp();
  adminRoleId = await firstAdminRoleId(t.database.db);
});
afterAll(() => t.close());

const db = () => t.database.db;
const permissionsOf = async (id: string) =>
  (await db().select({ p: roles.permissions }).from(roles).where(eq(roles.id, id)))[0]!.p;
const addRole = async (roleName: string, type: 'admin' | 'app', permissions: string[]) =>
  (await db().insert(roles).values({ roleName, type, permissions }).returning({ id: roles.id }))[0]!.id;
/** Makes `name` new to this database: no role carries it and it was never rolled out. */
async function forget(name: string) {
  await db().delete(permissionRollouts).where(eq(permissionRollouts.name, name));
  await db()
    .update(roles)
    .set({ permissions: sql`array_remove(${roles.permissions}, ${name}::text)` });
}

describe('rolling out the catalogue', () => {
  it('has every catalogue permission rolled out on a new database, and rolls nothing out twice', async () => {
    const rows = await db().select({ name: permissionRollouts.name }).from(permissionRollouts);
    expect(rows.map((r) => r.name).sort()).toEqual([...permissionNames].sort());
    expect(await rollOutPermissions(db())).toEqual([]);
  });

  it("grants a new permission to the first admin's role only, when it says nothing more", async () => {
    const support = await addRole('Rollout support', 'admin', ['devices.view', 'logs.view']);
    await forget('logs.view');
    expect(await permissionsOf(adminRoleId)).not.toContain('logs.view');
    expect(await rollOutPermissions(db())).toEqual(['logs.view']);
    expect(await permissionsOf(adminRoleId)).toContain('logs.view');
    expect(await permissionsOf(support)).toEqual(['devices.view']);
    expect(await rollOutPermissions(db())).toEqual([]);
  });

  it('grants it with grantedWith to every admin role carrying that one, and to no other', async () => {
    const viewers = await addRole('Rollout viewers', 'admin', ['devices.view']);
    const auditors = await addRole('Rollout auditors', 'admin', ['logs.view']);
    const technicians = await addRole('Rollout technicians', 'app', []);
    await forget('devices.enrol');
    const catalogue = permissionCatalogue.map((p) =>
      p.name === 'devices.enrol' ? { ...p, grantedWith: 'devices.view' } : p,
    );
    expect(await rollOutPermissions(db(), catalogue)).toEqual(['devices.enrol']);
    expect(await permissionsOf(viewers)).toEqual(['devices.view', 'devices.enrol']);
    expect(await permissionsOf(auditors)).toEqual(['logs.view']);
    expect(await permissionsOf(technicians)).toEqual([]);
    expect(await permissionsOf(adminRoleId)).toContain('devices.enrol');
  });

  it('grants it once when two starts roll out at the same moment', async () => {
    await forget('security.manage');
    const [a, b] = await Promise.all([rollOutPermissions(db()), rollOutPermissions(db())]);
    expect([...a, ...b]).toEqual(['security.manage']);
    expect((await permissionsOf(adminRoleId)).filter((p) => p === 'security.manage')).toHaveLength(1);
  });
});
