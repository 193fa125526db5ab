import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantMessages, permissionNames, type Permission } from '@app/contract/permissions';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { grantRequests, grantRoutes } from '#api/test/grant-requests.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Nobody grants what they do not hold (decision 063), every pair: an admin holding both managing
 * permissions and one other (A) tries to grant each permission (B) through each route that hands
 * permissions out. B is granted exactly when the admin holds it; otherwise the answer is 403 naming
 * B. Four routes times the catalogue squared (676 requests with 13 permissions): `npm test` runs this
 * file, the fast loop leaves it out (vitest.fast.config.ts) and runs grant-rules.test.ts, which asks
 * each route once each way.
 */

let t: TestApp;
let adminToken: string;
let grants: ReturnType<typeof grantRequests>;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login();
  grants = grantRequests(t);
});
afterAll(() => t.close());

it('every route grants exactly what the admin holds, for every pair of permissions', async () => {
  const outcomes: string[] = [];
  const expected: string[] = [];
  for (const a of permissionNames) {
    const held = [...new Set<Permission>(['roles.manage', 'users.manage', a])];
    const actor = await signInWithPermissions(t, adminToken, held);
    await t.stepUp(actor.token, actor.password);
    for (const route of grantRoutes)
      for (const b of permissionNames) {
        const res = await grants.tryGrant(route, actor.token, b);
        outcomes.push(
          `${route}: ${a} grants ${b}: ${res.statusCode} ${res.statusCode === 403 ? res.json().msg : ''}`,
        );
        const ok = route.startsWith('POST') ? 201 : 200;
        expected.push(
          `${route}: ${a} grants ${b}: ${held.includes(b) ? `${ok} ` : `403 ${grantMessages.notHeld(b)}`}`,
        );
      }
  }
  expect(outcomes).toEqual(expected);
  // The catalogue squared times four routes: each new permission adds two rows of requests, and the
  // customers' two took it past 30 s on a busy 2-core machine (other suites running beside it).
}, 120_000);
