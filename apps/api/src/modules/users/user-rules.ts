import { and, isNull, or, sql } from 'drizzle-orm';
import { userMessages } from '@app/contract/users';
import { users } from '#api/db/schema/users.ts';
import { outrankRefusal, type Actor } from '#api/lib/grant-rules.ts';
import { containsPattern } from '#api/lib/pagination.ts';

/*
 * Rules the single user actions and the bulk delete share (decision 055), so "all matching" is what
 * the list shows and a row the single delete refuses is refused in bulk for the same reason.
 */

/**
 * The supplier's own users: User Management lists, opens, changes and deletes only them. A clinic's
 * users are the clinic's (its manager, and the customer's detail page; decision 088).
 */
export const supplierUser = isNull(users.customerId);

/** The users list's search: user name, email or phone containing the text. */
export const userSearchWhere = (search: string | undefined) =>
  and(
    supplierUser,
    search
      ? or(
          sql`${users.userName} ilike ${containsPattern(search)}`,
          sql`${users.email} ilike ${containsPattern(search)}`,
          sql`${users.phone} ilike ${containsPattern(search)}`,
        )
      : undefined,
  );

/** Why this admin may not delete this user (null: they may). */
export function deleteRefusal(
  actor: Actor,
  user: { id: string; isDeletable: boolean | null; permissions: readonly string[] | null },
) {
  if (actor.userId === user.id) return userMessages.selfDelete;
  if (user.isDeletable === false) return userMessages.protectedDelete;
  return outrankRefusal(actor, user);
}
