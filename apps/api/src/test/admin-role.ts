import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/users.ts';
import { testAdmin } from './test-app.ts';

/**
 * The id of the role the first admin holds (every permission): what a test gives a user who should
 * be "an admin like the first one". Not "any role of type admin": tests add admin roles with fewer
 * permissions, and without an order the database may answer any of them (a reused test database
 * keeps dead rows, so its rows need not come back in the order they were written).
 */
export async function firstAdminRoleId(db: Db): Promise<string> {
  const [row] = await db.select({ roleId: users.roleId }).from(users).where(eq(users.email, testAdmin.email));
  if (!row?.roleId) throw new Error('firstAdminRoleId: the first admin has no role');
  return row.roleId;
}
