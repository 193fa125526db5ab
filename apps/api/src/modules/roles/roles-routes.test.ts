import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionNames } from '@app/contract/permissions';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  // Changing a role's type or permissions needs a step-up (decision 046; its own test: step-up.test.ts).
  token = await t.stepUp(await t.login());
});
afterAll(() => t.close());

const as = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as string }) });

const createRole = async (roleName: string, type: 'app' | 'admin' = 'app') => {
  const res = await as('POST', '/api/v1/admin/roles', { roleName, type });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as {
    _id: string;
    roleId: number;
    roleName: string;
    type: string;
    createTime: string;
    permissions: string[];
  };
};

describe('roles', () => {
  it('refuses every roles route without a token', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/api/v1/admin/roles/all'],
      ['POST', '/api/v1/admin/roles'],
      ['GET', `/api/v1/admin/roles/${id}`],
      ['PUT', `/api/v1/admin/roles/${id}`],
      ['DELETE', `/api/v1/admin/roles/${id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        payload: method === 'POST' || method === 'PUT' ? { roleName: 'x', type: 'app' } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('lists every role without parameters, for the role dropdown', async () => {
    const res = await as('GET', '/api/v1/admin/roles/all');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.roles.map((r: { roleName: string }) => r.roleName)).toEqual([
      'Admin',
      'Doctor',
      'Patient',
      'Technician',
    ]);
    expect(data.totalPages).toBe(1);
    expect(data.roles[0]).toMatchObject({
      roleId: expect.any(Number),
      type: 'admin',
      createTime: expect.any(String),
    });
  });

  it('pages with page/limit and with currentPage/pageSize alike', async () => {
    const a = (await as('GET', '/api/v1/admin/roles/all?page=2&limit=3')).json().data;
    const b = (await as('GET', '/api/v1/admin/roles/all?currentPage=2&pageSize=3')).json().data;
    expect(a.roles.map((r: { roleName: string }) => r.roleName)).toEqual(['Technician']);
    expect(b).toEqual(a);
    expect(a).toMatchObject({ totalPages: 2, total: 4, page: 2, limit: 3 });
  });

  it('rejects bad paging values with a 400 naming the parameter', async () => {
    const res = await as('GET', '/api/v1/admin/roles/all?pageSize=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('pageSize');
    expect((await as('GET', '/api/v1/admin/roles/all?page=0')).json().msg).toContain(
      'page must be at least 1',
    );
  });

  it('creates, reads and updates a role', async () => {
    const role = await createRole('Support', 'admin');
    expect(role).toMatchObject({ roleName: 'Support', type: 'admin' });
    const got = await as('GET', `/api/v1/admin/roles/${role._id}`);
    expect(got.json().data).toEqual(role);
    const updated = await as('PUT', `/api/v1/admin/roles/${role._id}`, {
      roleName: 'Support Desk',
      type: 'app',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      msg: 'Role updated successfully',
      data: { _id: role._id, roleName: 'Support Desk', type: 'app' },
    });
  });

  it('gives the spec messages for a missing name and a bad type, and creates nothing', async () => {
    const before = (await as('GET', '/api/v1/admin/roles/all')).json().data.total;
    const missing = await as('POST', '/api/v1/admin/roles', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toContain('Role Name is required');
    expect(missing.json().msg).toContain('Type is required');
    const badType = await as('POST', '/api/v1/admin/roles', { roleName: 'X', type: 'root' });
    expect(badType.json().msg).toBe('Invalid type');
    const blank = await as('POST', '/api/v1/admin/roles', { roleName: '   ', type: 'app' });
    expect(blank.json().msg).toBe('Role Name is required');
    expect((await as('GET', '/api/v1/admin/roles/all')).json().data.total).toBe(before);
  });

  it('keeps role names unique regardless of case (409)', async () => {
    await createRole('Auditor');
    const dup = await as('POST', '/api/v1/admin/roles', { roleName: 'auditor', type: 'admin' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe('A role with this name already exists');
    const other = await createRole('Auditor Two');
    const rename = await as('PUT', `/api/v1/admin/roles/${other._id}`, { roleName: 'AUDITOR', type: 'app' });
    expect(rename.statusCode).toBe(409);
  });

  it('answers 404 for an unknown role and 400 for an id that is not one', async () => {
    const unknown = await as('GET', '/api/v1/admin/roles/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe('Role not found');
    const bad = await as('GET', '/api/v1/admin/roles/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('Invalid role id');
    expect((await as('DELETE', '/api/v1/admin/roles/00000000-0000-4000-8000-000000000000')).statusCode).toBe(
      404,
    );
  });

  it('deletes an unused role', async () => {
    const role = await createRole('Temporary');
    const res = await as('DELETE', `/api/v1/admin/roles/${role._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: 'Role deleted successfully', data: null });
    expect((await as('GET', `/api/v1/admin/roles/${role._id}`)).statusCode).toBe(404);
  });

  it('refuses to delete a role that users still hold (409 saying so)', async () => {
    const role = await createRole('Field Staff', 'admin');
    const user = await as('POST', '/api/v1/admin/users/', {
      firstName: 'Fi',
      lastName: 'Eld',
      userName: 'field1',
      email: 'field1@example.com',
      phone: '0123456789',
      roleId: role._id,
      password: 'secret-1',
    });
    expect(user.statusCode, user.body).toBe(201);
    const res = await as('DELETE', `/api/v1/admin/roles/${role._id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toMatch(/assigned to 1 user/);
    expect((await as('GET', `/api/v1/admin/roles/${role._id}`)).statusCode).toBe(200);
  });

  it("refuses to turn the first admin's role into an app role", async () => {
    const admin = (await as('GET', '/api/v1/admin/roles/all')).json().data.roles[0];
    const res = await as('PUT', `/api/v1/admin/roles/${admin._id}`, { roleName: 'Admin', type: 'app' });
    expect(res.statusCode).toBe(403);
    expect((await as('GET', `/api/v1/admin/roles/${admin._id}`)).json().data.type).toBe('admin');
  });

  it('ends the sessions of users whose role stops being a console role', async () => {
    const role = await createRole('Night Shift', 'admin');
    await as('POST', '/api/v1/admin/users/', {
      firstName: 'Ni',
      lastName: 'Ght',
      userName: 'night1',
      email: 'night1@example.com',
      phone: '0123456789',
      roleId: role._id,
      password: 'secret-1',
    });
    const theirs = await t.login('night1@example.com', 'secret-1');
    expect((await t.injectAs(theirs, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(200);
    await as('PUT', `/api/v1/admin/roles/${role._id}`, { roleName: 'Night Shift', type: 'app' });
    expect((await t.injectAs(theirs, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(401);
  });
});

describe('role permissions', () => {
  it("answers each role's permissions: every one on the first admin's role, none on an app role", async () => {
    const roles = (await as('GET', '/api/v1/admin/roles/all')).json().data.roles as {
      roleName: string;
      permissions: string[];
    }[];
    expect(roles.find((r) => r.roleName === 'Admin')!.permissions).toEqual([...permissionNames]);
    expect(roles.find((r) => r.roleName === 'Doctor')!.permissions).toEqual([]);
  });

  it('creates a role with the permissions given, each once, in catalogue order; none when left out', async () => {
    const res = await as('POST', '/api/v1/admin/roles', {
      roleName: 'Ledger',
      type: 'admin',
      permissions: ['subscriptions.view', 'devices.view', 'subscriptions.view'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.permissions).toEqual(['devices.view', 'subscriptions.view']);
    expect((await as('GET', `/api/v1/admin/roles/${res.json().data._id}`)).json().data.permissions).toEqual([
      'devices.view',
      'subscriptions.view',
    ]);
    expect((await createRole('Bare Web Role', 'admin')).permissions).toEqual([]);
  });

  it('keeps the permissions on an update that leaves them out, and replaces them on one that sends them', async () => {
    const created = await as('POST', '/api/v1/admin/roles', {
      roleName: 'Desk',
      type: 'admin',
      permissions: ['logs.view'],
    });
    const id = created.json().data._id as string;
    const renamed = await as('PUT', `/api/v1/admin/roles/${id}`, { roleName: 'Front Desk', type: 'admin' });
    expect(renamed.json().data).toMatchObject({ roleName: 'Front Desk', permissions: ['logs.view'] });
    const replaced = await as('PUT', `/api/v1/admin/roles/${id}`, {
      roleName: 'Front Desk',
      type: 'admin',
      permissions: ['users.manage', 'devices.view'],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data.permissions).toEqual(['devices.view', 'users.manage']);
    const emptied = await as('PUT', `/api/v1/admin/roles/${id}`, {
      roleName: 'Front Desk',
      type: 'admin',
      permissions: [],
    });
    expect(emptied.json().data.permissions).toEqual([]);
  });

  it('refuses a permission that is not in the catalogue with a 400 naming the field, and changes nothing', async () => {
    const before = (await as('GET', '/api/v1/admin/roles/all')).json().data.total;
    const unknown = await as('POST', '/api/v1/admin/roles', {
      roleName: 'Overreach',
      type: 'admin',
      permissions: ['devices.view', 'patients.everything'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('permissions: "patients.everything" is not a known permission');
    const notAList = await as('POST', '/api/v1/admin/roles', {
      roleName: 'Overreach',
      type: 'admin',
      permissions: 'devices.view',
    });
    expect(notAList.statusCode).toBe(400);
    expect(notAList.json().msg).toBe('permissions must be a list of permission names');
    expect((await as('GET', '/api/v1/admin/roles/all')).json().data.total).toBe(before);

    const role = await createRole('Careful', 'admin');
    const update = await as('PUT', `/api/v1/admin/roles/${role._id}`, {
      roleName: 'Careful',
      type: 'admin',
      permissions: ['root'],
    });
    expect(update.statusCode).toBe(400);
    expect(update.json().msg).toContain('permissions');
    expect((await as('GET', `/api/v1/admin/roles/${role._id}`)).json().data.permissions).toEqual([]);
  });

  it('gives an app role no permissions: refused when sent, dropped when an admin role becomes one', async () => {
    const refused = await as('POST', '/api/v1/admin/roles', {
      roleName: 'Machine Crew',
      type: 'app',
      permissions: ['devices.view'],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe('permissions: only a Web role carries permissions');
    const created = await as('POST', '/api/v1/admin/roles', {
      roleName: 'Machine Crew',
      type: 'admin',
      permissions: ['devices.view'],
    });
    const id = created.json().data._id as string;
    const toApp = await as('PUT', `/api/v1/admin/roles/${id}`, { roleName: 'Machine Crew', type: 'app' });
    expect(toApp.json().data).toMatchObject({ type: 'app', permissions: [] });
    const back = await as('PUT', `/api/v1/admin/roles/${id}`, { roleName: 'Machine Crew', type: 'admin' });
    expect(back.json().data.permissions).toEqual([]);
  });

  it("refuses to take a permission from the first admin's role (403), and keeps it whole", async () => {
    const admin = (await as('GET', '/api/v1/admin/roles/all')).json().data.roles[0];
    const narrowed = {
      roleName: 'Admin',
      type: 'admin',
      permissions: permissionNames.filter((p) => p !== 'roles.manage'),
    };
    // The first admin may not change their own role at all (decision 063); another full admin
    // meets the rule that keeps it whole.
    const own = await as('PUT', `/api/v1/admin/roles/${admin._id}`, narrowed);
    expect(own.json().msg).toBe("You cannot change your own role's type or permissions");
    const other = await signInWithPermissions(t, token, permissionNames);
    await t.stepUp(other.token, other.password);
    const res = await t.injectAs(other.token, {
      method: 'PUT',
      url: `/api/v1/admin/roles/${admin._id}`,
      payload: narrowed,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe("The first admin's role must keep every permission");
    expect((await as('GET', `/api/v1/admin/roles/${admin._id}`)).json().data.permissions).toEqual([
      ...permissionNames,
    ]);
    const rename = await as('PUT', `/api/v1/admin/roles/${admin._id}`, {
      roleName: 'Administrators',
      type: 'admin',
      permissions: [...permissionNames].reverse(),
    });
    expect(rename.statusCode, rename.body).toBe(200);
    await as('PUT', `/api/v1/admin/roles/${admin._id}`, { roleName: 'Admin', type: 'admin' });
  });
});
