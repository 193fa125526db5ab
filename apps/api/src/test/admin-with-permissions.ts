import { randomBytes } from 'node:crypto';
import type { Permission } from '@app/contract/permissions';
import type { TestApp } from './test-app.ts';

/**
 * A console user whose role (of type admin, made for them) carries exactly these permissions,
 * signed in. `adminToken` is a session of the first admin, who may manage roles and users; it is
 * stepped up here (creating an admin needs it). The new session is not: its sign-in's own step-up
 * (decision 046) is lapsed at once, as if it had signed in minutes ago; `password` steps it up.
 */
export async function signInWithPermissions(
  t: TestApp,
  adminToken: string,
  permissions: readonly Permission[],
): Promise<{ token: string; roleId: string; userId: string; email: string; password: string }> {
  const tag = randomBytes(4).toString('hex');
  await t.stepUp(adminToken);
  const role = await t.injectAs(adminToken, {
    method: 'POST',
    url: '/api/v1/admin/roles',
    payload: { roleName: `Only ${tag}`, type: 'admin', permissions },
  });
  if (role.statusCode !== 201) throw new Error(`role: ${role.statusCode} ${role.body}`);
  const roleId = role.json().data._id as string;
  const password = `Perm-${tag}-1`;
  const email = `perm-${tag}@example.com`;
  const user = await t.injectAs(adminToken, {
    method: 'POST',
    url: '/api/v1/admin/users/',
    payload: {
      firstName: 'Per',
      lastName: 'Mission',
      userName: `perm_${tag}`,
      email,
      phone: '0123456789',
      roleId,
      password,
    },
  });
  if (user.statusCode !== 201) throw new Error(`user: ${user.statusCode} ${user.body}`);
  return {
    token: await t.loginWithoutStepUp(email, password),
    roleId,
    userId: user.json().data._id as string,
    email,
    password,
  };
}
