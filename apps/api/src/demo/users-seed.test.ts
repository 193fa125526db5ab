import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createRng } from './rng.ts';
import { seedUsers } from './users-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the demo users', () => {
  it('adds roles of both types, console users and their console activity to the Admin Logs', async () => {
    await seedUsers(t.database.db, createRng(7), { now: new Date(), devices: [] });
    const token = await t.login();
    const get = async (url: string) => (await t.injectAs(token, { method: 'GET', url })).json().data;
    const roles = (await get('/api/v1/admin/roles/all')).roles as { roleName: string; type: string }[];
    expect(roles.map((r) => r.roleName)).toEqual(
      expect.arrayContaining(['Support', 'Auditor', 'Clinic Manager']),
    );
    const list = await get('/api/v1/admin/users/all?limit=100');
    expect(list.total).toBe(15);
    for (const user of list.users) expect(user.phone ?? '0123456789').toMatch(/^\d{10}$/);
    expect((await get('/api/v1/admin/access-logs/all')).total).toBeGreaterThanOrEqual(400);
    expect((await get('/api/v1/admin/error-logs/all')).total).toBeGreaterThanOrEqual(24);
  });
});
