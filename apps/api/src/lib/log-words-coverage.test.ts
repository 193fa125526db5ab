import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logInWords } from '@app/contract/log-words';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Every row of Admin Logs has words (issue 35 item 10: rows labelled N/A): each route of the console
 * and of the machines' API, as the row's resource names it, reads as a sentence. Routes outside
 * those two (the API docs, health, the JWKS, a customer's receipt) take no session and raise no
 * security event, so they never write an access row.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('Admin Logs in words', () => {
  it('has words for every route of the console and the machines', () => {
    const routes = t.app.registeredRoutes.filter((r) => /^\/api\/v1\/(admin|app)\//.test(r.url));
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes
      .filter((r) => logInWords({ resource: `${r.method} ${r.url}`, machineNumber: null }) === null)
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('says a device action with the machine, and an export by its list', () => {
    const words = (resource: string, machineNumber: string | null = null) =>
      logInWords({ resource, machineNumber })?.text;
    expect(words('PUT /api/v1/admin/machine/:id/licence/exemption', 'MN-1001')).toBe(
      'Granted a licence exemption to device MN-1001',
    );
    expect(words('GET /api/v1/admin/patient/export')).toBe('Downloaded an export of patients');
    expect(words('GET /api/v1/admin/access-logs/export')).toBe('Downloaded an export of access logs');
    expect(words('GET /api/v1/app/licence', 'MN-1002')).toBe('Machine fetched its licence on MN-1002');
  });
});
