import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { grantMessages, permissionNames, type Permission } from '@app/contract/permissions';
import { roles } from '#api/db/schema/users.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { firstAdminRoleId } from '#api/test/admin-role.ts';
import { grantRequests, grantRoutes } from '#api/test/grant-requests.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { enrol } from '#api/modules/auth/mfa-test-helpers.ts';

/*
 * Nobody grants what they do not hold (issue 32 finding 1, decision 063). A role with users.manage or
 * roles.manage alone could make its holder a full admin: move themselves into the Admin role, create
 * a full admin, or add every permission to their own role. Each such change is now a 403 naming the
 * permission, answered before any step-up is asked. Every pair of permissions through every route
 * that hands them out is grant-rules-pairs.test.ts, which `npm test` runs and the fast loop does not.
 */

let t: TestApp;
let adminToken: string;
let fullAdminRoleId: string;
let grants: ReturnType<typeof grantRequests>;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login();
  fullAdminRoleId = await firstAdminRoleId(t.database.db);
  grants = grantRequests(t);
});
afterAll(() => t.close());

/** A role made by the first admin, carrying exactly these permissions; answers its id. */
async function roleWith(permissions: readonly Permission[], type: 'admin' | 'app' = 'admin') {
  await t.stepUp(adminToken);
  const res = await t.injectAs(adminToken, {
    method: 'POST',
    url: apiPaths.roles,
    payload: {
      roleName: grants.named('Grant'),
      type,
      permissions: type === 'admin' ? permissions : undefined,
    },
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
        ...grants.userForm(fullAdminRoleId),
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
    const res = await grants.createUser(fresh.token, fullAdminRoleId);
    expect(res.json()).toEqual(forbidden(grantMessages.notHeld('devices.view')));
  });

  it('cannot edit, delete or bulk-delete a user who carries more than they do', async () => {
    await t.stepUp(actor.token, actor.password);
    const above = await grants.createUser(adminToken, await roleWith(['users.manage', 'logs.view']));
    const aboveId = above.json().data._id as string;
    const edit = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.user(aboveId),
      // Redirecting their email to one's own would hand over their account through a password reset.
      payload: { ...grants.userForm(above.json().data.roleId), email: 'taken-over@example.test' },
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
    const appUser = await grants.createUser(actor.token, await roleWith([], 'app'));
    expect(appUser.statusCode, appUser.body).toBe(201);
    const peer = await grants.createUser(actor.token, await roleWith(['users.manage']));
    expect(peer.statusCode, peer.body).toBe(201);
    const peerId = peer.json().data._id as string;
    const edit = await t.injectAs(actor.token, {
      method: 'PUT',
      url: apiPaths.user(peerId),
      payload: { ...grants.userForm(appUser.json().data.roleId) },
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
      payload: { roleName: grants.named('Renamed'), type: 'admin', permissions: ['roles.manage'] },
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
 * Each route that hands permissions out, once each way: an admin holding both managing permissions
 * and devices.view may grant devices.view and is refused logs.view with a 403 naming it. Every pair
 * of permissions, route by route, is grant-rules-pairs.test.ts.
 */
describe('each route that hands permissions out', () => {
  let token: string;
  beforeAll(async () => {
    const actor = await signInWithPermissions(t, adminToken, [
      'roles.manage',
      'users.manage',
      'devices.view',
    ]);
    token = await t.stepUp(actor.token, actor.password);
  });

  it.each(grantRoutes)('%s grants a permission the admin holds and refuses one they lack', async (route) => {
    const held = await grants.tryGrant(route, token, 'devices.view');
    expect(held.statusCode, held.body).toBe(route.startsWith('POST') ? 201 : 200);
    const lacked = await grants.tryGrant(route, token, 'logs.view');
    expect(lacked.json()).toEqual(forbidden(grantMessages.notHeld('logs.view')));
  });
});

it('the first admin, holding everything, may create and delete a full admin', async () => {
  await t.stepUp(adminToken);
  const res = await grants.createUser(adminToken, fullAdminRoleId);
  expect(res.statusCode, res.body).toBe(201);
  const del = await t.injectAs(adminToken, { method: 'DELETE', url: apiPaths.user(res.json().data._id) });
  expect(del.statusCode, del.body).toBe(200);
});
