import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkLimit, bulkMessages } from '@app/contract/bulk-actions';
import { apiPaths } from '@app/contract/paths';
import { userMessages } from '@app/contract/users';
import { users } from '#api/db/schema/users.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { accessRowsOf } from '#api/test/audit-rows.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

/* Decision 055: bulk delete of users, each meeting the single delete's rules. */

const missingId = '00000000-0000-4000-8000-000000000000';
let t: TestApp;
let token: string;
let selfId: string;
let appRoleId: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  const roles = (await t.injectAs(token, { method: 'GET', url: apiPaths.rolesAll })).json().data.roles as {
    _id: string;
    type: string;
  }[];
  appRoleId = roles.find((r) => r.type === 'app')!._id;
  const [me] = await t.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, testAdmin.email));
  selfId = me!.id;
});
afterAll(() => t.close());

/** The first admin's session is stepped up first, as the console asks (decision 063); another's is not. */
const bulk = async (payload: unknown, who = token) => {
  if (who === token) await t.stepUp(who);
  return t.injectAs(who, { method: 'POST', url: apiPaths.usersBulkDelete, payload: payload as object });
};

/** Users of an app role (no step-up needed to create them) whose user name carries `tag`. */
async function createTagged(tag: string, n: number) {
  const made: { _id: string; userName: string }[] = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(1000);
    const res = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.users,
      payload: {
        firstName: 'Bulk',
        lastName: 'User',
        userName: `${tag}_${i}`,
        email: `${tag}.${i}@example.com`,
        phone: '0123456789',
        roleId: appRoleId,
        password: 'Secret-pass1',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    made.push(res.json().data);
  }
  return made;
}
const exists = async (id: string) =>
  (await t.database.db.select({ id: users.id }).from(users).where(eq(users.id, id))).length === 1;

describe('POST /api/v1/admin/users/bulk-delete with ids', () => {
  it('deletes the users picked and refuses yourself, a protected user and an unknown id, each with the reason', async () => {
    const [a, b, guarded] = await createTagged(`pick${randomBytes(2).toString('hex')}`, 3);
    await t.database.db.update(users).set({ isDeletable: false }).where(eq(users.id, guarded!._id));
    const res = await bulk({ ids: [a!._id, selfId, guarded!._id, missingId, b!._id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      code: 200,
      msg: '2 done, 3 refused',
      data: {
        results: [
          { _id: a!._id, userName: a!.userName, outcome: 'done' },
          { _id: selfId, userName: 'admin', outcome: 'refused', reason: userMessages.selfDelete },
          {
            _id: guarded!._id,
            userName: guarded!.userName,
            outcome: 'refused',
            reason: userMessages.protectedDelete,
          },
          { _id: missingId, outcome: 'refused', reason: userMessages.notFound },
          { _id: b!._id, userName: b!.userName, outcome: 'done' },
        ],
        done: 2,
        refused: 3,
      },
    });
    expect(await exists(a!._id)).toBe(false);
    expect(await exists(b!._id)).toBe(false);
    expect(await exists(guarded!._id)).toBe(true);
    expect(await exists(selfId)).toBe(true);
  });

  it("ends a deleted admin's sessions at once", async () => {
    const other = await signInWithPermissions(t, token, ['devices.view']);
    const before = await t.injectAs(other.token, { method: 'GET', url: apiPaths.profile });
    expect(before.statusCode).toBe(200);
    expect((await bulk({ ids: [other.userId] })).json().data.done).toBe(1);
    expect((await t.injectAs(other.token, { method: 'GET', url: apiPaths.profile })).statusCode).toBe(401);
  });
});

describe('POST /api/v1/admin/users/bulk-delete with allMatching', () => {
  it("deletes exactly the users the list's search shows, in the list's order, and refuses yourself among them", async () => {
    const tag = `match${randomBytes(2).toString('hex')}`;
    const matching = await createTagged(tag, 3);
    const [outside] = await createTagged(`out${randomBytes(2).toString('hex')}`, 1);
    const shown = (
      await t.injectAs(token, { method: 'GET', url: apiPaths.usersAll, query: { search: tag, limit: '100' } })
    ).json().data.users as { _id: string }[];
    const res = await bulk({ allMatching: { search: tag.toUpperCase() } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.results.map((r: { _id: string }) => r._id)).toEqual(shown.map((u) => u._id));
    expect(res.json().data).toMatchObject({ done: 3, refused: 0 });
    for (const u of matching) expect(await exists(u._id)).toBe(false);
    expect(await exists(outside!._id)).toBe(true);

    // The signed-in admin matches "admin@": refused, never deleted.
    const mine = await bulk({ allMatching: { search: testAdmin.email } });
    expect(mine.json().data).toEqual({
      results: [{ _id: selfId, userName: 'admin', outcome: 'refused', reason: userMessages.selfDelete }],
      done: 0,
      refused: 1,
    });
  });
});

describe('POST /api/v1/admin/users/bulk-delete: refusals of the whole request', () => {
  it.each([
    [{}, bulkMessages.idsRequired],
    [{ ids: [missingId], allMatching: {} }, bulkMessages.idsOrAllMatching],
    [{ ids: [] }, bulkMessages.idsEmpty],
    [{ ids: ['1'] }, bulkMessages.idInvalid],
    [{ allMatching: { role: 'x' } }, 'allMatching: unknown filter: role'],
    [{ allMatching: { search: 'x'.repeat(101) } }, 'search must be at most 100 characters'],
    [{ ids: [missingId], confirm: true }, 'Unknown field: confirm'],
  ])('answers 400 to %j naming the field', async (payload, message) => {
    const res = await bulk(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toContain(message);
  });

  it(`refuses more than ${bulkLimit} ids, and takes ${bulkLimit}`, async () => {
    const ids = Array.from({ length: bulkLimit + 1 }, () => crypto.randomUUID());
    const refused = await bulk({ ids });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toContain('ids may name at most 10,000 rows');
    const taken = await bulk({ ids: ids.slice(1) });
    expect(taken.statusCode, taken.body.slice(0, 200)).toBe(200);
    expect(taken.json().data).toMatchObject({ done: 0, refused: bulkLimit });
  });

  it('needs users.manage, like the single delete, and a step-up, since it can reach thousands', async () => {
    const [a] = await createTagged(`perm${randomBytes(2).toString('hex')}`, 1);
    const devicesOnly = await signInWithPermissions(t, token, ['devices.view']);
    expect((await bulk({ ids: [a!._id] }, devicesOnly.token)).statusCode).toBe(403);
    const manager = await signInWithPermissions(t, token, ['users.manage']);
    expect((await bulk({ ids: [a!._id] }, manager.token)).json().data).toMatchObject({
      stepUpRequired: true,
    });
    await t.stepUp(manager.token, manager.password);
    expect((await bulk({ ids: [a!._id] }, manager.token)).json().data.done).toBe(1);
  });
});

describe('the audit row of a bulk delete', () => {
  it('is one row naming every user deleted, and none refused', async () => {
    const [a, b] = await createTagged(`audit${randomBytes(2).toString('hex')}`, 2);
    const rows = (await accessRowsOf(t, () => bulk({ ids: [a!._id, b!._id, selfId] }))).filter(
      (r) => r.resource === 'POST /api/v1/admin/users/bulk-delete',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ recordKind: 'user', recordId: null, changedFields: null });
    expect([...rows[0]!.listedIds!].sort()).toEqual([a!._id, b!._id].sort());
  });
});
