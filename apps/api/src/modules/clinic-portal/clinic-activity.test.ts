import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerActivity } from '@app/contract/customers';
import { clinicPortalApiPaths as paths, clinicPortalTexts } from '@app/contract/clinic-portal-texts';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { customerPaths } from '@app/contract/customers-texts';
import { testAdmin } from '#api/test/test-app.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { signInClinicUser } from '#api/test/clinic-users.ts';
import { twoClinics } from './portal-test-data.ts';

/*
 * Issue 39 item 6: a clinic manager sees their own clinic's activity (the audit rows that carry it,
 * newest first) and nothing of another clinic's; the supplier's staff are named as the supplier; staff
 * are refused. The supplier's admin sees the same rows with the admin's email on the customer's page.
 */

let t: TestApp;
let data: Awaited<ReturnType<typeof twoClinics>>;
beforeAll(async () => {
  t = await createTestApp();
  data = await twoClinics(t);
});
afterAll(() => t.close());

type Page = { activity: CustomerActivity[]; total: number; totalPages: number };
const activityOf = async (token: string, query = '') => {
  const res = await t.injectAs(token, { method: 'GET', url: `${paths.activity}${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Page }).data;
};

describe("a clinic manager's view of the clinic's activity", () => {
  it("lists the clinic's own users' requests by email and the supplier's as the supplier, newest first", async () => {
    const { a } = data;
    t.clock.advance(1000);
    const invited = await t.injectAs(a.token, {
      method: 'POST',
      url: clinicUserPaths.users,
      payload: { email: `colleague-${a.userId.slice(0, 8)}@clinic.example` },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const page = await activityOf(a.token, '?limit=100');
    expect(page.activity[0]).toMatchObject({ userEmail: a.email, resource: `POST ${clinicUserPaths.users}` });
    // The admin assigned A its machines and invited its manager: there, but not by name.
    const supplier = page.activity.filter((r) => r.userEmail === clinicPortalTexts.supplierActor);
    expect(supplier.map((r) => r.resource)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/admin/machine/:id/assignment',
        'POST /api/v1/admin/customers/:id/invitations',
      ]),
    );
    expect(page.activity.some((r) => r.userEmail === testAdmin.email)).toBe(false);
    const times = page.activity.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(page.total).toBe(page.activity.length);

    // The supplier's admin reads the same rows on the customer's page, with the admin named.
    const res = await t.injectAs(data.admin, {
      method: 'GET',
      url: `${customerPaths.activity(a.customerId)}?limit=100`,
    });
    const asSupplier = (res.json() as { data: Page }).data;
    expect(asSupplier.activity.map((r) => r._id)).toEqual(
      expect.arrayContaining(page.activity.map((r) => r._id)),
    );
    expect(asSupplier.activity.some((r) => r.userEmail === testAdmin.email)).toBe(true);
  });

  it("shows nothing of another clinic's activity, in its rows or its count", async () => {
    const { a, b } = data;
    await t.injectAs(b.token, { method: 'GET', url: paths.figures });
    const ofA = await activityOf(a.token, '?limit=100');
    expect(ofA.activity.some((r) => r.userEmail === b.email)).toBe(false);
    const ofB = await activityOf(b.token, '?limit=100');
    expect(ofB.activity.some((r) => r.userEmail === a.email)).toBe(false);
    expect(ofB.activity.some((r) => r.userEmail === b.email)).toBe(true);
    const ids = new Set(ofA.activity.map((r) => r._id));
    expect(ofB.activity.filter((r) => ids.has(r._id))).toEqual([]);
  });

  it('pages, names a bad page size, and refuses staff and the console', async () => {
    const { a } = data;
    const first = await activityOf(a.token, '?limit=1');
    expect(first.activity).toHaveLength(1);
    expect(first.totalPages).toBe(first.total);
    const bad = await t.injectAs(a.token, { method: 'GET', url: `${paths.activity}?limit=lots` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('limit');
    const staff = await signInClinicUser(t, data.admin, { customerId: a.customerId, role: 'staff' });
    expect((await t.injectAs(staff.token, { method: 'GET', url: paths.activity })).statusCode).toBe(403);
    expect((await t.injectAs(data.admin, { method: 'GET', url: paths.activity })).statusCode).toBe(403);
  });
});
