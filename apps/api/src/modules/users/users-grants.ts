import { and, eq } from 'drizzle-orm';
import { firstNotHeld, grantMessages } from '@app/contract/permissions';
import { userMessages } from '@app/contract/users';
import type { Db } from '#api/db/client.ts';
import { roles, users } from '#api/db/schema/users.ts';
import { ForbiddenError } from '#api/lib/errors.ts';
import { heldPermissions, outrankRefusal, type Actor } from '#api/lib/grant-rules.ts';
import { deleteRefusal, supplierUser } from './user-rules.ts';

/**
 * What User Management's routes check before any step-up is asked (decisions 046 and 063): whether
 * the admin may give this role or act on this user at all, and whether the user is a console admin.
 */
export function createUserGrants({ db }: { db: Db }) {
  /** A user's role and what it lets them do, for the grant rules (undefined: no such user). */
  const standingOf = async (userId: string) =>
    (
      await db
        .select({
          id: users.id,
          roleId: users.roleId,
          isDeletable: users.isDeletable,
          permissions: heldPermissions,
        })
        .from(users)
        .leftJoin(roles, eq(users.roleId, roles.id))
        .where(and(eq(users.id, userId), supplierUser))
        .limit(1)
    )[0];

  return {
    standingOf,

    /**
     * Nobody grants what they do not hold (decision 063), checked before any step-up is asked: the
     * role given must carry only permissions the admin holds; an edited user must carry none beyond
     * theirs (or their email could be redirected and their account taken); nobody changes their
     * own role. An unknown role or user passes: the create or update answers it.
     */
    async assertMayAssign(actor: Actor, roleId: string, userId?: string) {
      if (userId) {
        const target = await standingOf(userId);
        if (target) {
          if (target.isDeletable === false) throw new ForbiddenError(userMessages.protectedEdit);
          if (target.id === actor.userId && target.roleId !== roleId)
            throw new ForbiddenError(grantMessages.ownRole);
          const refusal = outrankRefusal(actor, target);
          if (refusal) throw new ForbiddenError(refusal);
        }
      }
      const [role] = await db
        .select({ permissions: heldPermissions })
        .from(roles)
        .where(eq(roles.id, roleId))
        .limit(1);
      const missing = role ? firstNotHeld(actor.permissions, role.permissions) : null;
      if (missing) throw new ForbiddenError(grantMessages.notHeld(missing));
    },

    /** The single delete's rules, checked before any step-up is asked (unknown: the delete answers 404). */
    async assertMayRemove(actor: Actor, userId: string) {
      const target = await standingOf(userId);
      const refusal = target && deleteRefusal(actor, target);
      if (refusal) throw new ForbiddenError(refusal);
    },

    /** Whether this user's role is of type admin (deleting one needs a step-up); false when unknown. */
    async isConsoleAdmin(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ type: roles.type })
        .from(users)
        .innerJoin(roles, eq(users.roleId, roles.id))
        .where(eq(users.id, userId))
        .limit(1);
      return row?.type === 'admin';
    },
  };
}
