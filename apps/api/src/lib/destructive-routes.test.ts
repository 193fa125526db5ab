import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import type { RegisteredRoute } from './route-registry.ts';

/*
 * Issue 32 finding 2 and decision 063, by the route table rather than by the routes someone
 * remembered: every admin route that deletes, acts in bulk, revokes, resets, changes roles or who
 * holds them, or publishes to the fleet declares its step-up; every route that hands permissions out
 * (or acts on a user or role that holds them) checks that the admin holds them, before the step-up.
 * A new route of such a kind fails here until it declares both, or is reviewed below.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const key = (r: RegisteredRoute) => `${r.method} ${r.url}`;
const writes = (r: RegisteredRoute) => r.method !== 'GET';

/** Why a route is dangerous, or null. */
function danger(r: RegisteredRoute): string | null {
  if (r.access !== 'admin' || !writes(r)) return null;
  if (r.method === 'DELETE') return 'deletes';
  if (/\/bulk-[^/]+$/.test(r.url)) return 'acts in bulk';
  if (/\/(revoke|reset)$/.test(r.url)) return 'revokes or resets';
  if (/\/admin\/roles\/:id$/.test(r.url)) return 'changes a role';
  if (/\/admin\/users\/?(:id)?$/.test(r.url)) return 'gives or changes a role';
  if (/\/admin\/system\/updates(\/|$)/.test(r.url)) return 'publishes to the fleet';
  return null;
}

/** Reviewed: dangerous by their shape, but with nothing at stake that cannot be made again. */
const reviewedSafe: Record<string, string> = {
  'DELETE /api/v1/admin/views/:id': "an admin's own saved view",
  // Only an unpaid link (409 once paid): nothing paid is undone, no licence changes, and a new link
  // is one click away. Extending a paid-through date, which gives time unpaid, asks for the password.
  'POST /api/v1/admin/subscriptions/:id/revoke': 'an unpaid payment link made void',
  // A name for a set of machines: deleting it changes no machine and no command already sent.
  'DELETE /api/v1/admin/groups/:id': 'a machine group, made again in a moment',
};

/** The routes that hand out permissions or act on someone who holds them (decision 063). */
const grantsOrOutranks = (r: RegisteredRoute) =>
  r.access === 'admin' &&
  writes(r) &&
  (/\/admin\/roles(\/:id)?$/.test(r.url) ||
    /\/admin\/users\/?(:id)?$/.test(r.url) ||
    /\/mfa\/reset$/.test(r.url));

describe('the route table', () => {
  it('finds the routes it is about (so an empty match cannot pass)', () => {
    const dangerous = t.app.registeredRoutes.filter((r) => danger(r)).map(key);
    for (const expected of [
      'DELETE /api/v1/admin/users/:id',
      'POST /api/v1/admin/users/bulk-delete',
      'POST /api/v1/admin/machine/bulk-status',
      'PUT /api/v1/admin/roles/:id',
      'DELETE /api/v1/admin/roles/:id',
      'POST /api/v1/admin/machine/:id/enrolment/revoke',
      'POST /api/v1/admin/users/:id/mfa/reset',
      'POST /api/v1/admin/system/updates',
      'POST /api/v1/admin/system/updates/:id/rollout',
    ])
      expect(dangerous).toContain(expected);
  });

  it('gives every route that deletes, acts in bulk, revokes, changes roles or publishes a step-up', () => {
    const lacking = t.app.registeredRoutes
      .filter((r) => danger(r) && !r.stepUp && !(key(r) in reviewedSafe))
      .map((r) => `${key(r)} ${danger(r)} but declares no step-up`);
    expect(lacking).toEqual([]);
  });

  it('has each reviewed exception still in the table, and still without a step-up', () => {
    for (const route of Object.keys(reviewedSafe)) {
      const found = t.app.registeredRoutes.find((r) => key(r) === route);
      expect(found, route).toBeDefined();
      expect(found!.stepUp, route).toBeUndefined();
    }
  });

  it('has every route that hands out permissions check, before its step-up, that the admin holds them', () => {
    const routes = t.app.registeredRoutes.filter(grantsOrOutranks);
    expect(routes.map(key).sort()).toEqual([
      'DELETE /api/v1/admin/roles/:id',
      'DELETE /api/v1/admin/users/:id',
      'POST /api/v1/admin/roles',
      'POST /api/v1/admin/users',
      'POST /api/v1/admin/users/',
      'POST /api/v1/admin/users/:id/mfa/reset',
      'PUT /api/v1/admin/roles/:id',
      'PUT /api/v1/admin/users/:id',
    ]);
    expect(routes.filter((r) => !r.authorizes).map(key)).toEqual([]);
  });
});
