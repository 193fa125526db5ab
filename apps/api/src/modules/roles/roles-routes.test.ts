import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
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
