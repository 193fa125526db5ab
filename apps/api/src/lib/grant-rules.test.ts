import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { grantMessages, permissionNames, type Permission } from '@app/contract/permissions';
import { roles, users } from '#api/db/schema/users.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { firstAdminRoleId } from '#api/test/admin-role.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { enrol } from '#api/modules/auth/mfa-test-helpers.ts';

/*
 * Nobody grants what they do not hold (issue 32 finding 1, decision 063). A role with users.manage or
 * roles.manage alone could make its holder a full admin: move themselves into the Admin role, create
 * a full admin, or add every permission to their own role. Each such change is now a 403 naming the
 * permission, answered before any step-up is asked.
 */

let t: TestApp;
let adminToken: string;
let fullAdminRoleId: string;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login();
  fullAdminRoleId = await firstAdminRoleId(t.database.db);
});
afterAll(() => t.close());

let serial = 0;
const userForm = (roleId: string) => {
  const n = ++serial;
  return {
    firstName: 'Grant',
    lastName: `Rule ${n}`,
    roleId,
    userName: `grant_rule_${n}`,
    email: `grant-rule-${n}@example.test`,
    phone: '0123456789',
  };
};
const createUser = (token: string, roleId: string) =>
  t.injectAs(token, {
    method: 'POST',
    url: apiPaths.users,
    payload: { ...userForm(roleId), password: 'Granted-Passw0rd' },
  });
/** A role made by the first admin, carrying exactly these permissions; answers its id. */
async function roleWith(permissions: readonly Permission[], type: 'admin' | 'app' = 'admin') {
  await t.stepUp(adminToken);
  const res = await t.injectAs(adminToken, {
    method: 'POST',
    url: apiPaths.roles,
    payload: { roleName: `Grant ${++serial}`, type, permissions: type === 'admin' ? permissions : undefined },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data._id as string;
}
const forbidden = (msg: string) => ({ code: 403, msg, data: null });

describe('an admin holding users.manage alone', () => {
  let actor: Awaited<ReturnType<typeof signInWithPermissions>>;
  beforeAll(async () => {
    actor = await signInWithPermissions(t, adminToken, ['users.manage']);
  });

  it('cannot move themselves into the Admin role, even stepped up, and still cannot read patients', async () => {
    await t.stepUp(actor.token, actor.password);
    const me = await t.injectAs(actor.token, { method: 'GET', url: apiPaths.user(actor.userId) });
    const res = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.user(actor.userId),
      payload: {
        ...userForm(fullAdminRoleId),
        email: me.json().data.email,
        userName: me.json().data.userName,
      },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(forbidden(grantMessages.ownRole));
    const patients = await t.injectAs(actor.token, {
      method: 'GET',
      url: `${apiPaths.patientsAll}?page=1&limit=10`,
    });
    expect(patients.statusCode).toBe(403);
  });

  it('is refused creating a full admin with a 403 naming the first permission they lack, before any step-up', async () => {
    const fresh = await signInWithPermissions(t, adminToken, ['users.manage']);
    const res = await createUser(fresh.token, fullAdminRoleId);
    expect(res.json()).toEqual(forbidden(grantMessages.notHeld('devices.view')));
  });

  it('cannot edit, delete or bulk-delete a user who carries more than they do', async () => {
    await t.stepUp(actor.token, actor.password);
    const above = await createUser(adminToken, await roleWith(['users.manage', 'logs.view']));
    const aboveId = above.json().data._id as string;
    const edit = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.user(aboveId),
      // Redirecting their email to one's own would hand over their account through a password reset.
      payload: { ...userForm(above.json().data.roleId), email: 'taken-over@example.test' },
    });
    expect(edit.json()).toEqual(forbidden(grantMessages.outranked('logs.view')));
    const del = await t.injectAs(actor.token, { method: 'DELETE', url: apiPaths.user(aboveId) });
    expect(del.json()).toEqual(forbidden(grantMessages.outranked('logs.view')));
    const bulk = await t.injectAs(actor.token, {
      method: 'POST',
      url: apiPaths.usersBulkDelete,
      payload: { ids: [aboveId] },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().data.results).toEqual([
      {
        _id: aboveId,
        userName: above.json().data.userName,
        outcome: 'refused',
        reason: grantMessages.outranked('logs.view'),
      },
    ]);
    const still = await t.injectAs(adminToken, { method: 'GET', url: apiPaths.user(aboveId) });
    expect(still.json().data.email).toBe(above.json().data.email);
  });

  it('may still create, edit and delete users of roles within their own permissions', async () => {
    await t.stepUp(actor.token, actor.password);
    const appUser = await createUser(actor.token, await roleWith([], 'app'));
    expect(appUser.statusCode, appUser.body).toBe(201);
    const peer = await createUser(actor.token, await roleWith(['users.manage']));
    expect(peer.statusCode, peer.body).toBe(201);
    const peerId = peer.json().data._id as string;
    const edit = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.user(peerId),
      payload: { ...userForm(appUser.json().data.roleId) },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const del = await t.injectAs(actor.token, { method: 'DELETE', url: apiPaths.user(peerId) });
    expect(del.statusCode, del.body).toBe(200);
  });

  it('may edit their own details while keeping their role', async () => {
    const own = await t.injectAs(actor.token, { method: 'GET', url: apiPaths.user(actor.userId) });
    const { firstName, lastName, userName, email, phone, roleId } = own.json().data;
    const res = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.user(actor.userId),
      payload: {
        firstName,
        lastName: `${lastName}-renamed`,
        userName,
        email,
        phone: phone ?? '0123456789',
        roleId,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('an admin holding roles.manage alone', () => {
  let actor: Awaited<ReturnType<typeof signInWithPermissions>>;
  beforeAll(async () => {
    actor = await signInWithPermissions(t, adminToken, ['roles.manage']);
  });

  it('cannot add every permission to their own role, even stepped up, and still cannot read patients', async () => {
    await t.stepUp(actor.token, actor.password);
    const res = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.role(actor.roleId),
      payload: { roleName: 'Mine', type: 'admin', permissions: permissionNames },
    });
    expect(res.json()).toEqual(forbidden(grantMessages.ownRolePermissions));
    const [row] = await t.database.db.select().from(roles).where(eq(roles.id, actor.roleId));
    expect(row!.permissions).toEqual(['roles.manage']);
    const patients = await t.injectAs(actor.token, {
      method: 'GET',
      url: `${apiPaths.patientsAll}?page=1&limit=10`,
    });
    expect(patients.statusCode).toBe(403);
  });

  it('may rename their own role, which changes nobody’s access', async () => {
    const res = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.role(actor.roleId),
      payload: { roleName: `Renamed ${++serial}`, type: 'admin', permissions: ['roles.manage'] },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('cannot change or delete a role that carries more than they do, nor turn an app role into a wider one', async () => {
    await t.stepUp(actor.token, actor.password);
    const wider = await roleWith(['roles.manage', 'patients.view']);
    const narrow = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.role(wider),
      payload: { roleName: 'Narrowed', type: 'admin', permissions: ['roles.manage'] },
    });
    expect(narrow.json()).toEqual(forbidden(grantMessages.outranked('patients.view')));
    const del = await t.injectAs(actor.token, { method: 'DELETE', url: apiPaths.role(wider) });
    expect(del.json()).toEqual(forbidden(grantMessages.outranked('patients.view')));
    const appRole = await roleWith([], 'app');
    const widen = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.role(appRole),
      payload: { roleName: 'Widened', type: 'admin', permissions: ['patients.view'] },
    });
    expect(widen.json()).toEqual(forbidden(grantMessages.notHeld('patients.view')));
  });
});

describe('an admin holding security.manage', () => {
  it('cannot reset the two-step sign-in of a user who carries more than they do, before any step-up', async () => {
    const actor = await signInWithPermissions(t, adminToken, ['security.manage']);
    // A full admin with an authenticator: taking it away is a step towards their account.
    await enrol(t, 'grant-rule-mfa@example.test');
    const me = await t.injectAs(adminToken, { method: 'GET', url: `${apiPaths.usersAll}?page=1&limit=50` });
    const target = me
      .json()
      .data.users.find((u: { email: string }) => u.email === 'grant-rule-mfa@example.test');
    const res = await t.injectAs(actor.token, { method: 'POST', url: apiPaths.userMfaReset(target._id) });
    expect(res.json()).toEqual(forbidden(grantMessages.outranked('devices.view')));
  });
});

/*
 * Every pair: an admin holding both managing permissions and one other (A) tries to grant each
 * permission (B) through each route that hands permissions out. B is granted exactly when the admin
 * holds it; otherwise the answer is 403 naming B.
 */
describe('every permission pair, route by route', () => {
  const routes = ['POST roles', 'PUT roles/:id', 'POST users', 'PUT users/:id'] as const;
  const onlyRole = new Map<Permission, string>();
  let appRoleId: string;
  beforeAll(async () => {
    for (const b of permissionNames) onlyRole.set(b, await roleWith([b]));
    appRoleId = await roleWith([], 'app');
  });

  // Targets straight into the database: this test is about the answers, not the set-up's routes.
  const emptyRole = async () =>
    (
      await t.database.db
        .insert(roles)
        .values({ roleName: `Pair target ${++serial}`, type: 'admin', permissions: [] })
        .returning({ id: roles.id })
    )[0]!.id;
  const appUser = async () => {
    const { password: _, ...form } = { ...userForm(appRoleId), password: '' };
    return (
      await t.database.db
        .insert(users)
        .values({ ...form, passwordHash: 'not-a-hash' })
        .returning({ id: users.id })
    )[0]!.id;
  };

  async function tryGrant(route: (typeof routes)[number], token: string, b: Permission) {
    const roleBody = { roleName: `Pair ${++serial}`, type: 'admin', permissions: [b] };
    if (route === 'POST roles')
      return t.injectAs(token, { method: 'POST', url: apiPaths.roles, payload: roleBody });
    if (route === 'PUT roles/:id')
      return t.injectAs(token, { method: 'PUT', url: apiPaths.role(await emptyRole()), payload: roleBody });
    if (route === 'POST users') return createUser(token, onlyRole.get(b)!);
    return t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.user(await appUser()),
      payload: userForm(onlyRole.get(b)!),
    });
  }

  it('granted exactly what the admin holds', async () => {
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const a of permissionNames) {
      const held = [...new Set<Permission>(['roles.manage', 'users.manage', a])];
      const actor = await signInWithPermissions(t, adminToken, held);
      await t.stepUp(actor.token, actor.password);
      for (const route of routes)
        for (const b of permissionNames) {
          const res = await tryGrant(route, actor.token, b);
          outcomes.push(
            `${route}: ${a} grants ${b}: ${res.statusCode} ${res.statusCode === 403 ? res.json().msg : ''}`,
          );
          const ok = route.startsWith('POST') ? 201 : 200;
          expected.push(
            `${route}: ${a} grants ${b}: ${held.includes(b) ? `${ok} ` : `403 ${grantMessages.notHeld(b)}`}`,
          );
        }
    }
    expect(outcomes).toEqual(expected);
  });
});

it('the first admin, holding everything, may create and delete a full admin', async () => {
  await t.stepUp(adminToken);
  const res = await createUser(adminToken, fullAdminRoleId);
  expect(res.statusCode, res.body).toBe(201);
  const del = await t.injectAs(adminToken, { method: 'DELETE', url: apiPaths.user(res.json().data._id) });
  expect(del.statusCode, del.body).toBe(200);
});
