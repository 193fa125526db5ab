import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { users } from '#api/db/schema/users.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
let adminRoleId: string;
let appRoleId: string;
beforeAll(async () => {
  t = await createTestApp();
  // Creating or editing an admin needs a step-up (decision 046; its own test: auth/step-up.test.ts).
  token = await t.stepUp(await t.login());
  const roles = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/roles/all' })).json().data
    .roles as { _id: string; type: string }[];
  adminRoleId = roles.find((r) => r.type === 'admin')!._id;
  appRoleId = roles.find((r) => r.type === 'app')!._id;
});
afterAll(() => t.close());

const as = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who = token) =>
  t.injectAs(who, { method, url, ...(payload === undefined ? {} : { payload: payload as string }) });

let serial = 0;
const newUser = (over: Record<string, unknown> = {}) => {
  serial += 1;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    userName: `ada${serial}`,
    email: `ada${serial}@example.com`,
    phone: '0123456789',
    roleId: adminRoleId,
    password: 'Secret-pass1',
    ...over,
  };
};
const create = async (over: Record<string, unknown> = {}) => {
  // The test clock stands still unless moved: each user gets its own creation time.
  t.clock.advance(1000);
  const body = newUser(over);
  const res = await as('POST', '/api/v1/admin/users/', body);
  expect(res.statusCode, res.body).toBe(201);
  return {
    body,
    user: res.json().data as { _id: string; userName: string; email: string; isDeletable: boolean },
  };
};
const firstAdmin = async () =>
  (
    (await as('GET', '/api/v1/admin/users/all?limit=100')).json().data.users as {
      _id: string;
      email: string;
    }[]
  ).find((u) => u.email === testAdmin.email)!;

describe('users', () => {
  it('refuses every users route without a token', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/api/v1/admin/users/all'],
      ['POST', '/api/v1/admin/users/'],
      ['GET', `/api/v1/admin/users/${id}`],
      ['PUT', `/api/v1/admin/users/${id}`],
      ['DELETE', `/api/v1/admin/users/${id}`],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("refuses a common password with its own message naming the field; a short one keeps the spec's", async () => {
    for (const password of ['password1', 'QWERTY123']) {
      const res = await as('POST', '/api/v1/admin/users/', newUser({ password }));
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toMatchObject({
        msg: 'Password is too common: it is on lists of leaked passwords. Choose another',
        data: { errors: [{ path: 'password' }] },
      });
    }
    const short = await as('POST', '/api/v1/admin/users/', newUser({ password: '12345' }));
    expect(short.json().msg).toBe('Password must be at least 6 characters');
  });

  it('creates a user, returns them with their role and never the password', async () => {
    const { body, user } = await create();
    expect(user).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      userName: body.userName,
      email: body.email,
      phone: '0123456789',
      phonenumber: '0123456789',
      roleId: adminRoleId,
      role: { _id: adminRoleId, roleName: 'Admin', type: 'admin' },
      isDeletable: true,
    });
    expect(JSON.stringify(user)).not.toMatch(/password|argon/i);
    const [row] = await t.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, user._id));
    expect(row!.hash).toMatch(/^\$argon2id\$/);
  });

  it('lets a user with an admin role sign in, and not one with an app role', async () => {
    const { body } = await create();
    expect(await t.login(body.email, body.password)).toMatch(/\./);
    const app = await create({ roleId: appRoleId });
    await expect(t.login(app.body.email, app.body.password)).rejects.toThrow(/401/);
  });

  it('accepts the create path without the trailing slash too', async () => {
    const res = await as('POST', '/api/v1/admin/users', newUser());
    expect(res.statusCode).toBe(201);
  });

  it('lists users newest first with users and totalPages', async () => {
    const { user } = await create();
    const res = await as('GET', '/api/v1/admin/users/all?page=1&limit=2');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.users[0]._id).toBe(user._id);
    expect(data.users).toHaveLength(2);
    expect(data.totalPages).toBe(Math.ceil(data.total / 2));
    expect(JSON.stringify(data)).not.toMatch(/password/i);
  });

  it('gives every user-form message of docs/product.md §5.9 for a blank create, and creates nothing', async () => {
    const before = (await as('GET', '/api/v1/admin/users/all')).json().data.total;
    const res = await as('POST', '/api/v1/admin/users/', {});
    expect(res.statusCode).toBe(400);
    for (const msg of [
      'First name is required',
      'Last name is required',
      'Role is required',
      'User name is required',
      'Email is required',
      'Phone number is required',
      'Password is required',
    ]) {
      expect(res.json().msg).toContain(msg);
    }
    expect((await as('POST', '/api/v1/admin/users/', newUser({ email: 'nope' }))).json().msg).toBe(
      'Invalid email format',
    );
    expect((await as('POST', '/api/v1/admin/users/', newUser({ phone: '12345' }))).json().msg).toBe(
      'Phone number must be 10 digits',
    );
    expect((await as('POST', '/api/v1/admin/users/', newUser({ phone: '01234567890' }))).json().msg).toBe(
      'Phone number must be 10 digits',
    );
    const ghostRole = await as(
      'POST',
      '/api/v1/admin/users/',
      newUser({ roleId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(ghostRole.statusCode).toBe(400);
    expect(ghostRole.json().msg).toBe('Role not found');
    expect((await as('GET', '/api/v1/admin/users/all')).json().data.total).toBe(before);
  });

  it('keeps email and user name unique regardless of case (409)', async () => {
    const { body } = await create();
    const email = await as('POST', '/api/v1/admin/users/', newUser({ email: body.email.toUpperCase() }));
    expect(email.statusCode).toBe(409);
    expect(email.json().msg).toBe('A user with this email already exists');
    const name = await as('POST', '/api/v1/admin/users/', newUser({ userName: body.userName.toUpperCase() }));
    expect(name.statusCode).toBe(409);
    expect(name.json().msg).toBe('A user with this user name already exists');
    const other = await create();
    const clash = await as('PUT', `/api/v1/admin/users/${other.user._id}`, {
      ...newUser(),
      email: body.email,
    });
    expect(clash.statusCode).toBe(409);
  });

  it('updates a user and ignores a password in the payload', async () => {
    const { body, user } = await create();
    const res = await as('PUT', `/api/v1/admin/users/${user._id}`, {
      ...body,
      firstName: 'Augusta',
      phone: '9876543210',
      password: 'Changed-pass2',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      msg: 'User updated successfully',
      data: { firstName: 'Augusta', phone: '9876543210' },
    });
    expect(await t.login(body.email, body.password)).toMatch(/\./);
    await expect(t.login(body.email, 'Changed-pass2')).rejects.toThrow(/401/);
  });

  it("mails a notice to the old address when an admin changes a user's email, and none otherwise", async () => {
    const { body, user } = await create();
    const mailsTo = async (to: string) => {
      await t.app.mailer.idle();
      return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
    };
    expect(
      (await as('PUT', `/api/v1/admin/users/${user._id}`, { ...body, firstName: 'Ann' })).statusCode,
    ).toBe(200);
    expect(await mailsTo(body.email)).toEqual([]);

    const moved = `moved-${body.email}`;
    const res = await as('PUT', `/api/v1/admin/users/${user._id}`, { ...body, email: moved.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    const [notice, ...more] = await mailsTo(body.email);
    expect(more).toEqual([]);
    expect(notice!.subject).toBe('The email address of your account was changed');
    expect(notice!.text).toContain(`from ${body.email} to ${moved} by ${testAdmin.email}`);
    expect(await mailsTo(moved)).toEqual([]);
  });

  it('validates the edit like the create, without asking for a password', async () => {
    const { user } = await create();
    const res = await as('PUT', `/api/v1/admin/users/${user._id}`, { firstName: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('First name is required');
    expect(res.json().msg).not.toContain('Password');
    const { body } = await create();
    const noPassword = { ...body, password: undefined };
    expect(
      (
        await as('PUT', `/api/v1/admin/users/${user._id}`, {
          ...noPassword,
          email: 'x1@example.com',
          userName: 'x1',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses to edit or delete the first admin (403)', async () => {
    const admin = await firstAdmin();
    const edit = await as('PUT', `/api/v1/admin/users/${admin._id}`, newUser({ email: testAdmin.email }));
    expect(edit.statusCode).toBe(403);
    expect(edit.json().msg).toBe('This user is protected and cannot be edited');
    const { body } = await create();
    const other = await t.login(body.email, body.password);
    const del = await as('DELETE', `/api/v1/admin/users/${admin._id}`, undefined, other);
    expect(del.statusCode).toBe(403);
    expect(del.json().msg).toBe('This user is protected and cannot be deleted');
  });

  it('refuses to let anyone delete themselves', async () => {
    const { body, user } = await create();
    const theirs = await t.login(body.email, body.password);
    const res = await as('DELETE', `/api/v1/admin/users/${user._id}`, undefined, theirs);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe('You cannot delete your own account');
  });

  it('deletes a user and ends their sessions at once', async () => {
    const { body, user } = await create();
    const theirs = await t.login(body.email, body.password);
    const res = await as('DELETE', `/api/v1/admin/users/${user._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: 'User deleted successfully', data: null });
    expect((await as('GET', `/api/v1/admin/users/${user._id}`)).statusCode).toBe(404);
    expect((await t.injectAs(theirs, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(401);
  });

  it('signs a user out when they are moved to an app role', async () => {
    const { body, user } = await create();
    const theirs = await t.login(body.email, body.password);
    await as('PUT', `/api/v1/admin/users/${user._id}`, { ...body, roleId: appRoleId });
    expect((await t.injectAs(theirs, { method: 'GET', url: '/api/v1/admin/profile' })).statusCode).toBe(401);
  });

  it('reads one user, 404 for an unknown id and 400 for a malformed one', async () => {
    const { user } = await create();
    expect((await as('GET', `/api/v1/admin/users/${user._id}`)).json().data._id).toBe(user._id);
    const unknown = await as('GET', '/api/v1/admin/users/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe('User not found');
    const bad = await as('DELETE', '/api/v1/admin/users/1 or 1=1');
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/v1/admin/users/export', () => {
  it('writes every user the search matches, newest first, with the list columns and no secret', async () => {
    const tag = `exp${Date.now().toString(36)}`;
    for (const n of [1, 2, 3])
      await create({ userName: `${tag}_${n}`, email: `${tag}_${n}@example.com`, roleId: appRoleId });
    const csv = await as('GET', `/api/v1/admin/users/export?search=${tag}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...rows] = csv.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(header).toBe('User Name,Email,Phone,Role,Created At');
    expect(rows.map((r) => r.split(',').slice(0, 3).join(','))).toEqual([
      `${tag}_3,${tag}_3@example.com,0123456789`,
      `${tag}_2,${tag}_2@example.com,0123456789`,
      `${tag}_1,${tag}_1@example.com,0123456789`,
    ]);
    expect(csv.body).not.toContain('argon2');
    const listed = (await as('GET', `/api/v1/admin/users/all?search=${tag}`)).json().data.total;
    expect(rows).toHaveLength(listed);
  });
});
