import { and, eq, inArray, not, or, sql } from 'drizzle-orm';
import { permissionCatalogue, type PermissionEntry } from '@app/contract/permissions';
import type { Db } from '#api/db/client.ts';
import { permissionRollouts, roles, users } from '#api/db/schema/users.ts';

/** `permission = any(<a text[] column>)`, the permission a bound value (never spliced into the SQL). */
export const carries = (permissions: typeof roles.permissions, permission: string) =>
  sql`${permission}::text = any(${permissions})`;

/**
 * Grants each catalogue permission this database has not rolled out yet (decision 067): to the
 * first admin's role (someone must be able to hand it out) and to every admin role that carries
 * its `grantedWith`. Recorded in `permission_rollouts` in the same transaction, claimed by insert,
 * so two instances starting at once grant it once. Answers the permissions rolled out now.
 */
export async function rollOutPermissions(
  db: Db,
  catalogue: readonly PermissionEntry[] = permissionCatalogue,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const fresh = await tx
      .insert(permissionRollouts)
      .values(catalogue.map(({ name }) => ({ name })))
      .onConflictDoNothing()
      .returning({ name: permissionRollouts.name });
    for (const { name } of fresh) {
      const { grantedWith } = catalogue.find((p) => p.name === name)!;
      const protectedRoles = tx.select({ id: users.roleId }).from(users).where(eq(users.isDeletable, false));
      await tx
        .update(roles)
        .set({ permissions: sql`array_append(${roles.permissions}, ${name}::text)` })
        .where(
          and(
            eq(roles.type, 'admin'),
            not(carries(roles.permissions, name)),
            or(
              inArray(roles.id, protectedRoles),
              grantedWith ? carries(roles.permissions, grantedWith) : undefined,
            ),
          ),
        );
    }
    return fresh.map((r) => r.name);
  });
}
