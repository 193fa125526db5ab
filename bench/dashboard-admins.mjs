import { eq } from 'drizzle-orm';
import { roles, users } from '../apps/api/src/db/schema/users.ts';
import { hashPassword } from '../apps/api/src/lib/passwords.ts';

const scoped = ['devices.view', 'subscriptions.view', 'patients.view'];

/**
 * The bench's admins, signed in: the first admin (every permission) and one per figure group's
 * permission, each with a role of its own carrying only that one (decision 050), made directly in
 * the database so a re-run finds them.
 */
export async function createBenchAdmins(address, config, database) {
  const db = database.db;
  const signIn = async (email, password) => {
    const res = await fetch(`${address}/api/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return (await res.json()).data.accessToken;
  };
  const tokens = { all: await signIn(config.adminEmail, config.adminPassword) };
  const password = 'Bench-Scoped-Passw0rd';
  const passwordHash = await hashPassword(password);
  for (const permission of scoped) {
    const roleName = `Bench ${permission}`;
    let [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.roleName, roleName));
    if (!role)
      [role] = await db
        .insert(roles)
        .values({ roleName, type: 'admin', permissions: [permission] })
        .returning({ id: roles.id });
    const email = `bench-${permission.replace('.', '-')}@example.com`;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (user) await db.update(users).set({ passwordHash, roleId: role.id }).where(eq(users.id, user.id));
    else
      await db
        .insert(users)
        .values({ userName: `bench_${permission.replace('.', '_')}`, email, passwordHash, roleId: role.id });
    tokens[permission] = await signIn(email, password);
  }
  return tokens;
}
