import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@app/contract/envelope';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { users } from '#api/db/schema/users.ts';
import { acceptInvitation, invitationTokenFor, signInClinicUser } from '#api/test/clinic-users.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let admin: string;
let manager: Awaited<ReturnType<typeof signInClinicUser>>;
let staff: Awaited<ReturnType<typeof signInClinicUser>>;
let other: Awaited<ReturnType<typeof signInClinicUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  manager = await signInClinicUser(t, admin);
  staff = await signInClinicUser(t, admin, { customerId: manager.customerId, role: 'staff' });
  // Another clinic's manager.
  other = await signInClinicUser(t, admin);
});
afterAll(() => t.close());

const as = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.injectAs(token, { method, url, payload });

describe("a manager and their clinic's people", () => {
  it('lists only their own clinic: its users, roles and waiting invitations', async () => {
    const res = await as(manager.token, 'GET', clinicUserPaths.users);
    expect(res.statusCode, res.body).toBe(200);
    const listed = res.json().data.users as { email: string; role: string; mfaEnabled: boolean }[];
    expect(listed.map((u) => [u.email, u.role, u.mfaEnabled]).sort()).toEqual(
      [
        [manager.email, 'manager', false],
        [staff.email, 'staff', false],
      ].sort(),
    );
    // The supplier's admin sees the same on the customer's detail.
    const byAdmin = await as(admin, 'GET', clinicUserPaths.adminUsers(manager.customerId));
    expect(byAdmin.json().data.users).toHaveLength(2);
  });

  it('invites a colleague as staff; the colleague accepts and is staff of the same clinic', async () => {
    const email = `colleague-${Date.now()}@clinic.example`;
    const sent = await as(manager.token, 'POST', clinicUserPaths.users, { email });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data).toMatchObject({ email, role: 'staff' });
    const accepted = await acceptInvitation(t, await invitationTokenFor(t, email));
    expect(accepted.json().data.admin.clinic).toMatchObject({ _id: manager.customerId, role: 'staff' });
  });

  it('refuses staff every manager route (403), and lets them see who they are', async () => {
    for (const [method, url] of [
      ['GET', clinicUserPaths.users],
      ['POST', clinicUserPaths.users],
      ['DELETE', clinicUserPaths.user(manager.userId)],
    ] as const) {
      const res = await as(
        staff.token,
        method,
        url,
        method === 'POST' ? { email: 'x@clinic.example' } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().msg).toBe(clinicUserMessages.managersOnly);
    }
    const me = await as(staff.token, 'GET', clinicUserPaths.me);
    expect(me.json().data.clinic).toMatchObject({ role: 'staff', _id: manager.customerId });
  });

  it("answers 404 for another clinic's user, as for an id that does not exist, and removes nobody", async () => {
    for (const id of [other.userId, '00000000-0000-4000-8000-000000000000']) {
      const res = await as(manager.token, 'DELETE', clinicUserPaths.user(id));
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe(clinicUserMessages.userNotFound);
    }
    expect(await t.database.db.$count(users, eq(users.id, other.userId))).toBe(1);
    const own = await as(manager.token, 'DELETE', clinicUserPaths.user(manager.userId));
    expect(own.statusCode).toBe(400);
    expect(own.json().msg).toBe(clinicUserMessages.removeSelf);
  });

  it('removes a staff member: their session ends at once, and the removal is in the audit trail with the customer', async () => {
    const leaving = await signInClinicUser(t, admin, { customerId: manager.customerId, role: 'staff' });
    const res = await as(manager.token, 'DELETE', clinicUserPaths.user(leaving.userId));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe(clinicUserMessages.removed);
    expect((await as(leaving.token, 'GET', clinicUserPaths.me)).statusCode).toBe(401);
    await t.app.audit.flush();
    const [row] = await t.database.db
      .select({
        recordKind: accessLogs.recordKind,
        recordId: accessLogs.recordId,
        customerId: accessLogs.customerId,
      })
      .from(accessLogs)
      .where(and(eq(accessLogs.resource, 'DELETE /api/v1/clinic/users/:id'), eq(accessLogs.statusCode, 200)));
    expect(row).toEqual({ recordKind: 'user', recordId: leaving.userId, customerId: manager.customerId });
  });
});

describe('clinic users and the rest of the API', () => {
  it('sign in on the console sign-in route, into their clinic; the sign-in row carries the customer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: staff.email, password: 'Clinic-Passw0rd!' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.admin.clinic._id).toBe(manager.customerId);
    await t.app.audit.flush();
    const rows = await t.database.db
      .select({ customerId: accessLogs.customerId })
      .from(accessLogs)
      .where(and(eq(accessLogs.event, 'login.success'), eq(accessLogs.userEmail, staff.email)));
    expect(rows.at(-1)).toEqual({ customerId: manager.customerId });
  });

  it('get 403 from every admin route, whatever its permission (the auth hook, before any handler)', async () => {
    const adminRoutes = t.app.registeredRoutes.filter((r) => r.access === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(150);
    for (const route of adminRoutes) {
      const url = route.url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const res = await as(manager.token, route.method as 'GET', url);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().msg).toBe(apiMessages.forbidden);
    }
  });

  it("cannot call the machines' API with their token, nor reach the portal with an admin's (403)", async () => {
    const device = await as(manager.token, 'POST', '/api/v1/app/heartbeat', {});
    expect(device.statusCode).toBe(401);
    for (const url of [clinicUserPaths.me, clinicUserPaths.users]) {
      const res = await as(admin, 'GET', url);
      expect(res.statusCode, url).toBe(403);
    }
  });

  it("are not in User Management, and the clinic roles are not on the Roles screen (the admins' screens are unchanged)", async () => {
    const list = await as(admin, 'GET', '/api/v1/admin/users/all?limit=100');
    const emails = (list.json().data.users as { email: string }[]).map((u) => u.email);
    expect(emails).not.toContain(manager.email);
    expect((await as(admin, 'GET', `/api/v1/admin/users/${manager.userId}`)).statusCode).toBe(404);
    const roles = await as(admin, 'GET', '/api/v1/admin/roles/all');
    const types = (roles.json().data.roles as { type: string }[]).map((r) => r.type);
    expect(new Set(types)).toEqual(new Set(['admin', 'app']));
    expect(roles.json().data.roles.map((r: { roleName: string }) => r.roleName)).toEqual([
      'Admin',
      'Doctor',
      'Patient',
      'Technician',
    ]);
  });

  it('signs out of the portal: the token no longer works', async () => {
    const again = await signInClinicUser(t, admin, { customerId: manager.customerId, role: 'staff' });
    expect((await as(again.token, 'POST', clinicUserPaths.logout)).statusCode).toBe(200);
    const after = await as(again.token, 'GET', clinicUserPaths.me);
    expect(after.statusCode).toBe(401);
  });
});
