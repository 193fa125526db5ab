import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionNames } from '@app/contract/permissions';
import { createRng } from '@app/fake-data/random';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { seedUsers } from './users-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedUsers(t.database.db, createRng(7), { now: new Date(), devices: [] });
});
afterAll(() => t.close());

describe('the demo users', () => {
  it('adds roles of both types, console users and their console activity to the Admin Logs', async () => {
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

  it('gives the demo roles permissions that fit their names, and the Admin role every one', async () => {
    const token = await t.login();
    const roles = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/roles/all' })).json().data
      .roles as { roleName: string; permissions: string[] }[];
    const of = (name: string) => roles.find((r) => r.roleName === name)!.permissions;
    expect(of('Admin')).toEqual([...permissionNames]);
    // Support looks after the machines: no health data, no users, no roles, no logs.
    expect(of('Support')).toEqual(['devices.view', 'devices.edit', 'devices.enrol', 'subscriptions.view']);
    expect(of('Auditor')).toEqual(['devices.view', 'logs.view', 'subscriptions.view']);
    expect(of('Clinic Manager')).toEqual([]);
  });
});
