import { apiPaths } from '@app/contract/paths';
import type { Permission } from '@app/contract/permissions';
import { roles, users } from '#api/db/schema/users.ts';
import type { TestApp } from './test-app.ts';

/** The routes that hand permissions out (decision 063). */
export const grantRoutes = ['POST roles', 'PUT roles/:id', 'POST users', 'PUT users/:id'] as const;

/**
 * Requests that try to hand out one permission, for grant-rules.test.ts (each route, once each way)
 * and grant-rules-pairs.test.ts (every pair of permissions). What a request acts on (a role to
 * edit, a user to move, a role carrying exactly the permission) goes straight into the database:
 * these tests are about the answers, not the set-up's routes. Names are unique within one app.
 */
export function grantRequests(t: TestApp) {
  let serial = 0;
  const named = (prefix: string) => `${prefix} ${++serial}`;
  const userForm = (roleId: string) => {
    const n = ++serial;
    return {
      firstName: 'Grant',
      lastName: `Rule ${n}`,
      roleId,
      userName: `grant_rule_${n}`,
      email: `grant-rule-${n}@example.test`,
      phone: '0123456789',
    };
  };
  const createUser = (token: string, roleId: string) =>
    t.injectAs(token, {
      method: 'POST',
      url: apiPaths.users,
      payload: { ...userForm(roleId), password: 'Granted-Passw0rd' },
    });
  const roleInDatabase = async (type: 'admin' | 'app', permissions: Permission[]) =>
    (
      await t.database.db
        .insert(roles)
        .values({ roleName: named('Grant target'), type, permissions })
        .returning({ id: roles.id })
    )[0]!.id;
  const onlyRole = new Map<Permission, Promise<string>>();
  const roleCarryingOnly = (b: Permission) => {
    if (!onlyRole.has(b)) onlyRole.set(b, roleInDatabase('admin', [b]));
    return onlyRole.get(b)!;
  };
  let appRole: Promise<string> | undefined;
  const appUser = async () =>
    (
      await t.database.db
        .insert(users)
        .values({ ...userForm(await (appRole ??= roleInDatabase('app', []))), passwordHash: 'not-a-hash' })
        .returning({ id: users.id })
    )[0]!.id;

  /** `token`'s admin grants `b` through `route`: a role carrying exactly `b`, or a user moved to one. */
  async function tryGrant(route: (typeof grantRoutes)[number], token: string, b: Permission) {
    const roleBody = { roleName: named('Pair'), type: 'admin', permissions: [b] };
    if (route === 'POST roles')
      return t.injectAs(token, { method: 'POST', url: apiPaths.roles, payload: roleBody });
    if (route === 'PUT roles/:id')
      return t.injectAs(token, {
        method: 'PUT',
        url: apiPaths.role(await roleInDatabase('admin', [])),
        payload: roleBody,
      });
    if (route === 'POST users') return createUser(token, await roleCarryingOnly(b));
    return t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.user(await appUser()),
      payload: userForm(await roleCarryingOnly(b)),
    });
  }

  return { named, userForm, createUser, tryGrant };
}
