import { desc, eq } from 'drizzle-orm';
import type { ClinicUser, ClinicUsers } from '@app/contract/clinic-users';
import type { Db } from '#api/db/client.ts';
import { mfaAuthenticators } from '#api/db/schema/mfa.ts';
import { clinicRoleIds, users } from '#api/db/schema/users.ts';
import type { InvitationsService } from './invitations-service.ts';

/** A clinic has tens of people: its list is answered whole, bounded all the same. */
const maxListed = 500;

/**
 * A clinic's people (decision 088): its users, each with their role and whether their two-step
 * sign-in is on, and the invitations still waiting. Always for one customer, named by the caller:
 * the clinic routes pass the signed-in user's own, the admin routes the customer in the URL.
 */
export function createClinicUsersService({
  db,
  invitations,
}: {
  db: Db;
  invitations: Pick<InvitationsService, 'pending'>;
}) {
  return {
    async list(customerId: string): Promise<ClinicUsers> {
      const rows = await db
        .select({
          id: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
          roleId: users.roleId,
          mfaEnabledAt: mfaAuthenticators.enabledAt,
          createdAt: users.createdAt,
        })
        .from(users)
        .leftJoin(mfaAuthenticators, eq(mfaAuthenticators.userId, users.id))
        .where(eq(users.customerId, customerId))
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(maxListed);
      const list: ClinicUser[] = rows.map((r) => ({
        _id: r.id,
        firstName: r.firstName,
        lastName: r.lastName,
        email: r.email,
        role: r.roleId === clinicRoleIds.manager ? 'manager' : 'staff',
        mfaEnabled: r.mfaEnabledAt !== null,
        createdAt: r.createdAt.toISOString(),
      }));
      return { users: list, invitations: await invitations.pending(customerId) };
    },
  };
}
export type ClinicUsersService = ReturnType<typeof createClinicUsersService>;
