import { randomBytes } from 'node:crypto';
import { eq, ne, sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { roles, users } from './db/schema/users.ts';
import { permissionNames } from '@app/contract/permissions';
import { hashPassword } from './lib/passwords.ts';
import { rollOutPermissions } from './lib/permission-rollout.ts';

// The first admin's role carries every permission: someone must be able to hand the others out.
export const defaultRoles: { roleName: string; type: 'admin' | 'app'; permissions: string[] }[] = [
  { roleName: 'Admin', type: 'admin', permissions: [...permissionNames] },
  { roleName: 'Doctor', type: 'app', permissions: [] },
  { roleName: 'Patient', type: 'app', permissions: [] },
  { roleName: 'Technician', type: 'app', permissions: [] },
];

export type BootstrapResult = { created: boolean; email: string; generatedPassword?: string };

/**
 * Every start: on the first, the default roles and the first admin, who can never be deleted; on
 * every one, the catalogue's new permissions granted.
 */
export async function bootstrap(
  db: Db,
  opts: { adminEmail: string; adminPassword?: string },
): Promise<BootstrapResult> {
  // The two fixed clinic roles come with migration 0057 (decision 088): they are not the console's.
  const [{ count: roleCount }] = (await db
    .select({ count: sql<number>`count(*)::int` })
    .from(roles)
    .where(ne(roles.type, 'clinic'))) as [{ count: number }];
  if (roleCount === 0) await db.insert(roles).values(defaultRoles);
  // A permission new to this database reaches the roles that should have it (decision 067).
  await rollOutPermissions(db);

  const [{ count: userCount }] = (await db.select({ count: sql<number>`count(*)::int` }).from(users)) as [
    { count: number },
  ];
  if (userCount > 0) {
    const [first] = await db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.isDeletable, false))
      .limit(1);
    return { created: false, email: first?.email ?? opts.adminEmail };
  }
  const [adminRole] = await db.select({ id: roles.id }).from(roles).where(eq(roles.type, 'admin')).limit(1);
  // Nobody holds a role yet, so granting this one everything takes nothing from anyone.
  await db
    .update(roles)
    .set({ permissions: [...permissionNames] })
    .where(eq(roles.id, adminRole!.id));
  const generatedPassword = opts.adminPassword ? undefined : randomBytes(12).toString('base64url');
  await db.insert(users).values({
    firstName: 'Super',
    lastName: 'Admin',
    userName: 'admin',
    email: opts.adminEmail,
    phone: null,
    passwordHash: await hashPassword(opts.adminPassword ?? generatedPassword!),
    roleId: adminRole!.id,
    isDeletable: false,
  });
  return { created: true, email: opts.adminEmail, generatedPassword };
}
