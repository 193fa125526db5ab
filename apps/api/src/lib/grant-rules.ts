import { sql } from 'drizzle-orm';
import { firstNotHeld, grantMessages } from '@app/contract/permissions';
import { roles } from '#api/db/schema/users.ts';

/*
 * Nobody grants what they do not hold (decision 063). The users, roles and two-step sign-in modules
 * each refuse, before any step-up is asked, a change that would reach beyond the acting admin's own
 * permissions; these are the pieces they share.
 */

/** Who acts: their user and what their role carries (decision 063). */
export type Actor = { userId: string; permissions: readonly string[] };

/** What a user's role lets them do in the console: an app role's holders carry no permission. */
export const heldPermissions = sql<
  string[]
>`case when ${roles.type} = 'admin' then ${roles.permissions} else '{}'::text[] end`;

/**
 * Why this admin may not manage this user at all (null: they may): a user who carries a permission
 * the admin lacks is beyond them, or changing their email would hand the admin their account.
 */
export function outrankRefusal(actor: Actor, user: { permissions: readonly string[] | null }) {
  const above = firstNotHeld(actor.permissions, user.permissions ?? []);
  return above ? grantMessages.outranked(above) : null;
}
